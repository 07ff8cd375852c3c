/**
 * Issue 15, item 10: a command refuses a data file another user owns (as root on the service user's
 * file it would leave root-owned -wal/-shm the service cannot open), unless --allow-other-owner.
 * The suite runs as root (CI and this project's machines): the file is given to `nobody`.
 */
import { describe, expect, test } from "bun:test";
import { chownSync, existsSync, readFileSync, statSync } from "node:fs";
import { cli, tempDir } from "./helpers/harness.ts";

/** A user other than the one running the suite, with its name as /etc/passwd has it. */
function otherUser(): { uid: number; name: string } {
  for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
    const [name, , id] = line.split(":");
    if (name && id && Number(id) !== process.getuid!()) return { uid: Number(id), name };
  }
  throw new Error("no other user in /etc/passwd");
}

describe("a data file owned by another user", () => {
  test("commands and serve refuse it naming the owner, exit 1, and create no -wal/-shm; --allow-other-owner opens it", async () => {
    expect(process.getuid!()).toBe(0); // chown needs root; the suite runs as root
    const tmp = tempDir();
    try {
      expect((await cli(["demo", "--data", tmp.dataPath])).code).toBe(0);
      const other = otherUser();
      chownSync(tmp.dataPath, other.uid, other.uid);
      const expected = `error: ${tmp.dataPath} belongs to ${other.name}, not to you: run it as ${other.name}: sudo -u ${other.name} feedbase … (or pass --allow-other-owner)\n`;
      for (const args of [["key", "list"], ["key", "create"], ["serve", "--port", "0"], ["demo"]]) {
        const result = await cli([...args, "--data", tmp.dataPath]);
        expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 1, stderr: expected });
      }
      expect(existsSync(tmp.dataPath + "-wal") || existsSync(tmp.dataPath + "-shm")).toBe(false);
      const allowed = await cli(["key", "list", "--allow-other-owner", "--data", tmp.dataPath]);
      expect({ code: allowed.code, stderr: allowed.stderr }).toEqual({ code: 0, stderr: "" });
      expect(statSync(tmp.dataPath).uid).toBe(other.uid);
    } finally {
      tmp.cleanup();
    }
  }, 30_000);
});

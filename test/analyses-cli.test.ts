/**
 * Lab analyses from the command line (issue 33): `import analyses <file.csv>` adds every row or none,
 * an empty sampledAt meaning now, firing `analysis.added` like the API (not with --no-events);
 * `analysis list <name>` shows the analyses and their statistics with every number in its key's unit,
 * `--json` the API's data; `analysis delete <id>` within `--workspace`. A running server sees each
 * change, and a real receiver hears the events. Before this issue each command was unknown (exit 1).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, eventually, startTestServer, tempDir, type TestServer } from "./helpers/harness.ts";
import { startRecorder, type Recorder } from "./helpers/webhooks.ts";

setDefaultTimeout(60_000);

const tmp = tempDir();
let t: TestServer;
let read: string;
let receiver: Recorder;
const run = (...args: string[]) => cli([...args, "--data", t.dataPath]);
const file = (name: string, text: string) => {
  const path = join(tmp.dir, name);
  writeFileSync(path, text);
  return path;
};
const analysesOf = async (name: string) => (await (await t.request("GET", `/v1/ingredients/${encodeURIComponent(name)}/analyses`, { key: read })).json()).data;

beforeAll(async () => {
  t = await startTestServer();
  read = t.key();
  const csv = file("i.csv", "name,category,price,inStock,CP,ME_poultry\nMaize,Cereals,215,yes,8,3300\nSoybean meal 48%,Protein meals,420,yes,47.5,2440\n");
  expect((await run("import", "ingredients", csv, "--no-events")).code).toBe(0);
  receiver = startRecorder();
  expect((await run("webhook", "add", receiver.url, "--events", "analysis.added")).code).toBe(0);
});
afterAll(async () => {
  await receiver.stop();
  await t.stop();
  tmp.cleanup();
});

describe("feedbase import analyses", () => {
  test("all or nothing: a bad cell or an unknown name imports no row, naming its line", async () => {
    const cases: [string, string][] = [
      ["name,sampledAt,lot,lab,CP\nMaize,2026-11-01,L-1,NIR,7.9\nMaize,2026-11-02,L-2,NIR,lots\n", "line 3, column 5 (CP): nutrients.CP must be a number"],
      ["name,sampledAt,lot,lab,CP\nMaize,2026-11-01,L-1,NIR,7.9\nMaiz,2026-11-02,L-2,NIR,8.1\n", "line 3: Ingredient not found: Maiz"],
      ["name,sampledAt,lot,lab,CP\nMaize,2099-11-01,L-1,NIR,7.9\n", "line 2, column 2 (sampledAt): sampledAt must not be in the future"],
      ["name,sampledAt,lot,lab,CP\nMaize,2026-11-01,L-1,NIR,\n", "line 2: nutrients must have 1 to 500 keys"],
      ["sampledAt,CP\n2026-11-01,7.9\n", "line 1: the header needs the column name"],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const path = file(`bad-${i}.csv`, text);
      const r = await run("import", "analyses", path);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: expect.stringContaining(`${path}: ${message}`) });
      expect(r.stderr).toContain("nothing was imported");
    }
    expect((await analysesOf("Maize")).analyses).toEqual([]);
  });

  test("every row added in file order, an empty sampledAt meaning now; each fires analysis.added; --no-events fires none", async () => {
    const before = Date.now();
    const path = file("lab.csv", "name,sampledAt,lot,lab,CP,ME_poultry\nMaize,2026-10-02,L-6,Eurofins,8.4,\nMaize,2026-11-02T08:30:00Z,L-7,NIR,7.9,3310\nSoybean meal 48%,,,,46.1,\n");
    expect(await run("import", "analyses", path)).toEqual({ code: 0, stdout: "Imported 3 analyses into workspace default\n", stderr: "" });
    await eventually(() => receiver.requests.length === 3);
    // In file order per ingredient (the delivery order webhooks promise).
    const heard = (name: string) => receiver.requests.filter((r) => r.json.name === name).map((r) => [r.json.nutrients, r.json.sampledAt]);
    expect(heard("Maize")).toEqual([
      [{ CP: 8.4 }, "2026-10-02T00:00:00.000Z"],
      [{ CP: 7.9, ME_poultry: 3310 }, "2026-11-02T08:30:00.000Z"],
    ]);
    const [soyEvent] = receiver.requests.filter((r) => r.json.name === "Soybean meal 48%");
    expect(soyEvent!.json).toEqual({ id: expect.stringMatching(/^ana_/), name: "Soybean meal 48%", nutrients: { CP: 46.1 }, sampledAt: soyEvent!.json.timestamp, timestamp: soyEvent!.json.timestamp });
    const soy = (await analysesOf("Soybean meal 48%")).analyses[0];
    expect(Date.parse(soy.sampledAt)).toBeGreaterThanOrEqual(before);
    expect(soy).toMatchObject({ lot: null, lab: null });

    const quiet = file("quiet.csv", "name,CP\nMaize,8.2\n");
    expect((await run("import", "analyses", quiet, "--no-events")).code).toBe(0);
    expect((await analysesOf("Maize")).analyses.length).toBe(3);
    const events = (await (await t.request("GET", "/v1/events", { key: read })).json()).data as { type: string }[];
    expect(events.filter((e) => e.type === "analysis.added").length).toBe(3);
  });
});

describe("feedbase analysis", () => {
  test("list: the analyses and their statistics, every number with its key's unit; --json is the API's data", async () => {
    const r = await run("analysis", "list", "Maize");
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("Maize: 3 analyses (workspace default)");
    expect(lines[2]).toMatch(/^SAMPLED \(UTC\)\s+CP\s+ME_poultry\s+LOT\s+LAB\s+ID$/);
    expect(lines.find((l) => l.startsWith("2026-11-02 08:30"))).toMatch(/^2026-11-02 08:30\s+7\.9 %\s+3310 kcal\/kg\s+L-7\s+NIR\s+ana_\w{16}$/);
    expect(lines.find((l) => l.startsWith("2026-10-02 00:00"))).toMatch(/^2026-10-02 00:00\s+8\.4 %\s+-\s+L-6\s+Eurofins\s+ana_\w{16}$/);
    // n = 3, mean 8.1667, sd (n − 1) of 8.4, 7.9, 8.2 = 0.2517.
    expect(lines.find((l) => l.startsWith("CP "))).toMatch(/^CP\s+3\s+8\.1667 %\s+0\.2517 %\s+7\.9 %\s+8\.4 %\s+8 %$/);
    expect(lines.find((l) => l.startsWith("ME_poultry "))).toMatch(/^ME_poultry\s+1\s+3310 kcal\/kg\s+-\s+3310 kcal\/kg\s+3310 kcal\/kg\s+3300 kcal\/kg$/);

    const json = await run("analysis", "list", "Maize", "--json");
    expect(JSON.parse(json.stdout)).toEqual(await analysesOf("Maize"));
    expect(await run("analysis", "list", "Wheat")).toMatchObject({ code: 1, stderr: expect.stringContaining("Ingredient not found: Wheat") });
    expect((await run("analysis", "list", "--help")).stdout).toContain("--from <time>");
  });

  test("delete: by id within --workspace; the server's listing loses it at once", async () => {
    const [first] = (await analysesOf("Maize")).analyses as { id: string; sampledAt: string }[];
    expect((await run("workspace", "create", "north")).code).toBe(0);
    expect(await run("analysis", "delete", first!.id, "--workspace", "north")).toMatchObject({ code: 1, stderr: expect.stringContaining(`Analysis not found: ${first!.id}`) });
    expect(await run("analysis", "delete", first!.id)).toEqual({ code: 0, stdout: `Deleted analysis ${first!.id} of Maize, sampled ${first!.sampledAt} (workspace default)\n`, stderr: "" });
    expect((await analysesOf("Maize")).analyses.map((a: { id: string }) => a.id)).not.toContain(first!.id);
  });
});

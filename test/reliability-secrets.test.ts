import { describe, expect, test } from "bun:test";
import { cli, eventually, spawnServe, tempDir, type ServeProcess } from "./helpers/harness.ts";
import { startRecorder } from "./helpers/webhooks.ts";

describe("secrets stay secret", () => {
  // That the files holding them are private: test/data-file-private.test.ts (SQLite's files).
  test("no key or signing secret in serve's log or any command's output after creation", async () => {
    const tmp = tempDir();
    const accepting = startRecorder();
    const refusing = startRecorder(() => new Response("no", { status: 500 }));
    let serve: ServeProcess | null = null;
    try {
      serve = await spawnServe(tmp.dataPath, { env: { FEEDBASE_RETRY_SCHEDULE: "0.05,0.05" } });
      const data = ["--data", tmp.dataPath];
      const created = async (args: string[], env?: Record<string, string>) => {
        const r = await cli([...args, ...data], env ? { env } : {});
        expect(r.code).toBe(0);
        return r.stdout;
      };
      // Each secret taken from the one output allowed to show it.
      const chosen = "mill-chosen signing secret 0123456789";
      const made = await Promise.all([
        created(["key", "create", "--write", "--json"]),
        created(["key", "create"]),
        created(["key", "create", "--rate-limit", "1", "--json"]),
        created(["key", "create", "--json"]),
        created(["webhook", "add", accepting.url]),
        created(["webhook", "add", refusing.url, "--json"], { FEEDBASE_WEBHOOK_SECRET: chosen }),
      ]);
      const write = JSON.parse(made[0]!).key as string;
      const read = /Key: +(fbk_\S+)/.exec(made[1]!)![1]!;
      const limited = JSON.parse(made[2]!) as { id: string; key: string };
      const retired = JSON.parse(made[3]!) as { id: string; key: string };
      const generated = /Secret: +(whsec_\S+)/.exec(made[4]!)![1]!;
      // A near miss of a real key, as a typo in an integrator's configuration sends it.
      const nearMiss = write.slice(0, -1) + (write.endsWith("x") ? "y" : "x");

      const call = async (key: string, method: string, path: string, body?: unknown) =>
        (await fetch(serve!.url + path, { method, headers: { "X-API-Key": key }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })).status;
      expect(await call(write, "POST", "/v1/ingredients", { name: "Maize", price: 215 })).toBe(201);
      expect(await call(write, "PUT", "/v1/prices/Maize", { price: 219 })).toBe(200);
      expect(await call(read, "GET", "/v1/ingredients/Maize")).toBe(200);
      expect(await call(read, "PUT", "/v1/prices/Maize", { price: 1 })).toBe(403);
      expect(await call(nearMiss, "GET", "/v1/prices")).toBe(401);
      expect(await call(limited.key, "GET", "/v1/prices")).toBe(200);
      expect(await call(limited.key, "GET", "/v1/prices")).toBe(401);
      await created(["key", "deactivate", retired.id]);
      expect(await call(retired.key, "GET", "/v1/prices")).toBe(401);
      // Two events: delivered to one receiver, refused by the other until its deliveries fail.
      const failedAttempts = () => (serve!.output().match(/"result":"failed"/g) ?? []).length;
      // Bounded generously: with other test files beside it on PostgreSQL, 10 s was once too short.
      await eventually(() => accepting.requests.length === 2 && failedAttempts() === 2, 30_000);

      const commands = [
        ["key", "list"],
        ["key", "list", "--json"],
        ["webhook", "list"],
        ["webhook", "list", "--json"],
        ["webhook", "deliveries"],
        ["webhook", "deliveries", "--json"],
        ["webhook", "retry", "--failed"],
        ["workspace", "list"],
        ["export", "ingredients"],
      ];
      const outputs = await Promise.all(commands.map((args) => cli([...args, ...data])));
      for (const r of outputs) expect(r.code).toBe(0);
      // The retried deliveries are refused again, so the log holds refusals after an admin's retry too.
      await eventually(() => failedAttempts() === 4, 10_000);

      expect(await serve.stop()).toBe(0);
      const log = serve.output();
      // The log searched below holds requests, each kind of refusal and delivery attempts both ways.
      for (const line of ['"status":201', '"status":401', '"status":403', '"msg":"rate limit exceeded"', '"msg":"webhook attempt"', '"status":204', '"status":500']) {
        expect(log).toContain(line);
      }
      const secrets = [write, read, limited.key, retired.key, nearMiss, generated, chosen];
      // Whole, and without their prefix (the part that carries the secret).
      const forms = secrets.flatMap((s) => [s, s.replace(/^(fbk_|whsec_)/, "")]);
      const texts: [string, string][] = [["serve log", log], ...outputs.map((r, i) => [commands[i]!.join(" "), r.stdout + r.stderr] as [string, string])];
      for (const [where, text] of texts) {
        expect({ where, leaked: forms.filter((f) => text.includes(f)) }).toEqual({ where, leaked: [] });
      }
    } finally {
      serve?.proc.kill("SIGKILL");
      await accepting.stop();
      await refusing.stop();
      tmp.cleanup();
    }
  }, 30_000);
});

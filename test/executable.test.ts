import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, eventually, ROOT, spawnServe, tempDir } from "./helpers/harness.ts";
import { threadsOf } from "./helpers/threads.ts";
import { independentHex, startRecorder } from "./helpers/webhooks.ts";

const EXE = join(ROOT, "dist", "feedbase");

/** What ships is what is tested: `make test` builds dist/feedbase first; a bare `bun test` builds it here. */
beforeAll(() => {
  if (existsSync(EXE)) return;
  const built = Bun.spawnSync(["make", "-s", "build"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  expect(built.exitCode).toBe(0);
}, 120_000);

/** A command line run by the executable in `cwd` (through the harness, which turns --data into --database on PostgreSQL). */
const exe = (args: string[], cwd: string) => cli(args, { command: [EXE], cwd });

describe("the compiled executable (dist/feedbase)", () => {
  test("serve, key create, a webhook, health and a price update work", async () => {
    const tmp = tempDir();
    const receiver = startRecorder();
    try {
      const s = await spawnServe(tmp.dataPath, { command: [EXE] });
      try {
        const hook = await exe(["webhook", "add", receiver.url, "--json", "--data", tmp.dataPath], tmp.dir);
        expect(hook.code).toBe(0);
        const { secret } = JSON.parse(hook.stdout);
        const created = await exe(["key", "create", "--write", "--json", "--data", tmp.dataPath], tmp.dir);
        expect(created.code).toBe(0);
        const { key } = JSON.parse(created.stdout);
        const headers = { "X-API-Key": key };
        const health = await fetch(s.url + "/v1/health", { headers });
        expect(health.status).toBe(200);
        expect((await health.json()).version).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
        expect((await fetch(s.url + "/v1/ingredients", { method: "POST", headers, body: JSON.stringify({ name: "Maize", price: 210 }) })).status).toBe(201);
        const put = await fetch(s.url + "/v1/prices/Maize", { method: "PUT", headers, body: JSON.stringify({ price: 214.5 }) });
        expect(put.status).toBe(200);
        expect((await put.json()).data.price).toBe(214.5);
        await eventually(() => receiver.requests.length === 2);
        const [added, changed] = receiver.requests;
        expect(added!.headers["x-webhook-event"]).toBe("ingredient.added");
        expect(changed!.json).toMatchObject({ ingredient: "Maize", old_price: 210, new_price: 214.5 });
        expect(changed!.headers["x-webhook-signature"]).toBe(independentHex(secret, changed!.bytes));
      } finally {
        expect(await s.stop()).toBe(0);
      }
    } finally {
      await receiver.stop();
      tmp.cleanup();
    }
  });

  test("optimizes with the HiGHS WebAssembly embedded in the executable", async () => {
    const tmp = tempDir();
    try {
      const demo = await exe(["demo", "--data", tmp.dataPath], tmp.dir);
      expect(demo.code).toBe(0);
      const key = /fbk_[0-9A-Za-z]{40}/.exec(demo.stdout)![0];
      const s = await spawnServe(tmp.dataPath, { command: [EXE] });
      try {
        const res = await fetch(s.url + "/v1/formulas/broiler-starter/optimize?include=Wheat", { headers: { "X-API-Key": key } });
        expect(res.status).toBe(200);
        const r = (await res.json()).data;
        expect(r.status).toBe("optimal");
        expect(r.optimized.ingredients.length).toBeGreaterThan(5);
        expect((await fetch(s.url + "/v1/reports/savings", { headers: { "X-API-Key": key } })).status).toBe(200);
        // The solver was read from inside the executable, not from node_modules beside it.
        await eventually(() => s.output().includes('"msg":"solver ready"'));
        const ready = s.output().split("\n").find((l) => l.includes('"msg":"solver ready"'))!;
        expect(JSON.parse(ready).wasm).toStartWith("/$bunfs/");
        // The worker lowered its thread's priority (nice 19, SCHED_IDLE: 5) from inside the executable too (Linux only: docs/decisions.md#solver-pool).
        if (process.platform === "linux") expect(threadsOf(s.proc.pid).filter((t) => t.name === "Worker").map((t) => [t.nice, t.policy])).toEqual([[19, 5]]);
      } finally {
        expect(await s.stop()).toBe(0);
      }
      // The bytes of highs.wasm are inside the file that ships.
      const wasm = readFileSync(join(ROOT, "node_modules", "highs", "build", "highs.wasm"));
      expect(readFileSync(EXE).includes(wasm.subarray(wasm.length / 2, wasm.length / 2 + 256))).toBe(true);
      const optimized = await exe(["formula", "optimize", "broiler-starter", "--json", "--data", tmp.dataPath], tmp.dir);
      expect(optimized.code).toBe(0);
      expect(JSON.parse(optimized.stdout).status).toBe("optimal");
    } finally {
      tmp.cleanup();
    }
  });

  test("does not auto-load .env or bunfig.toml from its working directory", async () => {
    const tmp = tempDir();
    try {
      writeFileSync(join(tmp.dir, ".env"), `FEEDBASE_DATA=${join(tmp.dir, "from-dotenv.db")}\n`);
      writeFileSync(join(tmp.dir, "bunfig.toml"), 'preload = ["./nope.ts"]\n');
      const r = await exe(["workspace", "list"], tmp.dir);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe("error: No data file at ./feedbase.db (run feedbase serve once, or pass --data)");
      expect((await exe(["version"], tmp.dir)).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    } finally {
      tmp.cleanup();
    }
  });

  test("the systemd unit passes systemd-analyze verify with the built executable", async () => {
    const tmp = tempDir();
    try {
      const unit = readFileSync(join(ROOT, "deploy", "feedbase.service"), "utf8").replace(/^ExecStart=\S+/m, `ExecStart=${EXE}`);
      const path = join(tmp.dir, "feedbase.service");
      writeFileSync(path, unit);
      const r = Bun.spawnSync(["systemd-analyze", "verify", path], { stdout: "pipe", stderr: "pipe" });
      const complaints = (r.stderr.toString() + r.stdout.toString()).split("\n").filter((l) => l.includes("feedbase.service"));
      expect(complaints).toEqual([]);
      expect(unit).not.toMatch(/^MemoryDenyWriteExecute/m);
    } finally {
      tmp.cleanup();
    }
  });
});

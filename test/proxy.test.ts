/**
 * The sample HAProxy front (deploy/haproxy/feedbase.cfg) balancing two instances on one database (an
 * SQLite file two processes share, or PostgreSQL). Writes go through both, every answer through the
 * proxy is a success while one instance is SIGKILLed under load (the proxy resends what the dead one
 * never answered; without its retry settings this test sees 503s), and a price written through either
 * is read back through the proxy.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, eventually, freePorts, ROOT, spawnServe, tempDir, type ServeProcess } from "./helpers/harness.ts";
import { pipelinedPairs, pricesOf, rawConnection } from "./helpers/raw-http.ts";

const PAIRS = 100;

/** The sample configuration with this test's addresses: the proxy's port and the two instances'. */
function proxyConfig(front: number, a: string, b: string): string {
  return readFileSync(join(ROOT, "deploy", "haproxy", "feedbase.cfg"), "utf8")
    .replace("bind 127.0.0.1:8080", `bind 127.0.0.1:${front}`)
    .replace("server a 127.0.0.1:8081", `server a ${new URL(a).host}`)
    .replace("server b 127.0.0.1:8082", `server b ${new URL(b).host}`);
}

/** HAProxy with the sample configuration before instances `a` and `b`, once feedbase answers through it. */
async function startFront(dir: string, a: string, b: string): Promise<{ proc: ReturnType<typeof Bun.spawn>; port: number; base: string }> {
  const port = freePorts(1)[0]!;
  const config = join(dir, "haproxy.cfg");
  writeFileSync(config, proxyConfig(port, a, b));
  const proc = Bun.spawn(["haproxy", "-db", "-f", config], { stdout: "ignore", stderr: "pipe" });
  const base = `http://127.0.0.1:${port}`;
  // Up once feedbase answers through it (an X-Request-Id is feedbase's); a proxy that exits says why.
  await eventually(async () => {
    if (proc.exitCode !== null) throw new Error(`haproxy exited: ${await new Response(proc.stderr as ReadableStream).text()}`);
    const res = await fetch(base + "/readyz").catch(() => null);
    return res?.status === 200 && res.headers.has("x-request-id");
  }, 15_000);
  return { proc, port, base };
}

describe("two instances behind the sample HAProxy front", () => {
  test("answer throughout while one is killed, and agree on what was written", async () => {
    const tmp = tempDir();
    const instances: ServeProcess[] = [];
    let proxy: ReturnType<typeof Bun.spawn> | undefined;
    try {
      // serve makes a new data file; the key is made afterwards, as an admin would.
      instances.push(await spawnServe(tmp.dataPath), await spawnServe(tmp.dataPath));
      const created = await cli(["key", "create", "--write", "--rate-limit", "1000000", "--json", "--data", tmp.dataPath]);
      const key = (JSON.parse(created.stdout) as { key: string }).key;
      const front = await startFront(tmp.dir, instances[0]!.url, instances[1]!.url);
      proxy = front.proc;
      const base = front.base;
      const get = (path: string) => fetch(base + path, { headers: { "X-API-Key": key } });

      const maize = { name: "Maize", category: "Cereals", price: 300 };
      expect((await fetch(base + "/v1/ingredients", { method: "POST", headers: { "X-API-Key": key, "Content-Type": "application/json" }, body: JSON.stringify(maize) })).status).toBe(201);

      const statuses: number[] = [];
      let price = 300;
      const put = async () => {
        price += 1;
        const res = await fetch(base + "/v1/prices/Maize", { method: "PUT", headers: { "X-API-Key": key, "Content-Type": "application/json" }, body: JSON.stringify({ price }) });
        statuses.push(res.status);
        return res;
      };
      // Load through the proxy while instance a is killed half way: every answer must be a success.
      const load = (async () => {
        for (let i = 0; i < 300; i++) {
          const res = i % 3 === 0 ? await put() : await get("/v1/ingredients/Maize");
          if (i % 3 !== 0) statuses.push(res.status);
          await res.arrayBuffer();
        }
      })();
      await eventually(() => statuses.length >= 100, 30_000);
      // Round robin sent writes through both before one dies.
      for (const instance of instances) expect(instance.output()).toMatch(/"msg":"request".*"method":"PUT"/);
      instances[0]!.proc.kill("SIGKILL");
      await load;
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(statuses.length).toBe(300);

      // The survivor answers what was last written, through the proxy and directly.
      const through = (await (await get("/v1/ingredients/Maize")).json()) as { data: { price: number } };
      expect(through.data.price).toBe(price);
      const direct = (await (await fetch(instances[1]!.url + "/v1/ingredients/Maize", { headers: { "X-API-Key": key } })).json()) as { data: { price: number } };
      expect(direct.data.price).toBe(price);
    } finally {
      proxy?.kill();
      await proxy?.exited;
      for (const instance of instances) if (instance.proc.exitCode === null && instance.proc.signalCode === null) await instance.stop();
      tmp.cleanup();
    }
  }, 90_000);
});

describe("a client that pipelines, through the sample front", () => {
  // On PostgreSQL Bun drops a connection that pipelines behind an answer waiting for the database
  // (docs/decisions.md#serving-from-postgresql); HAProxy passes a client's pipelined requests on one at a
  // time, so through the front every answer comes, in order, on either backend.
  test("100 PUT/GET pairs sent at once on one connection: every answer, in order, each GET seeing its PUT", async () => {
    const tmp = tempDir();
    let instance: ServeProcess | undefined;
    let proxy: ReturnType<typeof Bun.spawn> | undefined;
    try {
      instance = await spawnServe(tmp.dataPath);
      const created = await cli(["key", "create", "--write", "--rate-limit", "1000000", "--json", "--data", tmp.dataPath]);
      const key = (JSON.parse(created.stdout) as { key: string }).key;
      // Both server lines name the one instance: the question is the front's pipelining, not balancing.
      const front = await startFront(tmp.dir, instance.url, instance.url);
      proxy = front.proc;
      const maize = { name: "Maize", category: "Cereals", price: 300 };
      expect((await fetch(front.base + "/v1/ingredients", { method: "POST", headers: { "X-API-Key": key, "Content-Type": "application/json" }, body: JSON.stringify(maize) })).status).toBe(201);
      const socket = await rawConnection(front.port);
      socket.send(pipelinedPairs(`127.0.0.1:${front.port}`, key, 400, PAIRS));
      const answers = await socket.until(PAIRS * 2);
      expect(socket.closed()).toBe(false);
      expect(answers.map((a) => a.status)).toEqual(Array.from({ length: PAIRS * 2 }, () => 200));
      expect(pricesOf(answers)).toEqual(Array.from({ length: PAIRS }, (_, i) => [400 + i, 400 + i]).flat());
      socket.end();
    } finally {
      proxy?.kill();
      await proxy?.exited;
      if (instance && instance.proc.exitCode === null && instance.proc.signalCode === null) await instance.stop();
      tmp.cleanup();
    }
  }, 60_000);
});

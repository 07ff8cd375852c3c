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

/** The sample configuration with this test's addresses: the proxy's port and the two instances'. */
function proxyConfig(front: number, a: string, b: string): string {
  return readFileSync(join(ROOT, "deploy", "haproxy", "feedbase.cfg"), "utf8")
    .replace("bind 127.0.0.1:8080", `bind 127.0.0.1:${front}`)
    .replace("server a 127.0.0.1:8081", `server a ${new URL(a).host}`)
    .replace("server b 127.0.0.1:8082", `server b ${new URL(b).host}`);
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
      const front = freePorts(1)[0]!;
      const config = join(tmp.dir, "haproxy.cfg");
      writeFileSync(config, proxyConfig(front, instances[0]!.url, instances[1]!.url));
      proxy = Bun.spawn(["haproxy", "-db", "-f", config], { stdout: "ignore", stderr: "pipe" });
      const base = `http://127.0.0.1:${front}`;
      const get = (path: string) => fetch(base + path, { headers: { "X-API-Key": key } });
      // Up once feedbase answers through it (an X-Request-Id is feedbase's); a proxy that exits says why.
      await eventually(async () => {
        if (proxy!.exitCode !== null) throw new Error(`haproxy exited: ${await new Response(proxy!.stderr as ReadableStream).text()}`);
        const res = await fetch(base + "/readyz").catch(() => null);
        return res?.status === 200 && res.headers.has("x-request-id");
      }, 15_000);

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

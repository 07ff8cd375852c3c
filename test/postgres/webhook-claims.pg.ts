/**
 * PostgreSQL only (make test-postgres), issue 29 item 2: webhook claims after a fault. A delivery whose
 * outcome could not be recorded (the database went away just then) gives its claim back once the
 * database answers, so its ingredient's later events do not wait out the 60 s lease; and a SIGKILLed
 * instance's claims stop counting toward the 4-per-webhook cap at once (its sessions are gone), so the
 * survivor goes on at full rate and takes them over. The lease is the real one (60 s) in both.
 */
import { describe, expect, test } from "bun:test";
import { cli, eventually, spawnServe, startTestServer, tempDir, type ServeProcess } from "../helpers/harness.ts";
import { startCluster, stopCluster } from "../helpers/pg-cluster.ts";
import { gate, startRecorder } from "../helpers/webhooks.ts";

describe("webhook claims after a fault", () => {
  test("an outcome lost to a database outage gives its claim back when the database returns: the ingredient's later events follow within seconds, in order", async () => {
    const t = await startTestServer();
    const hold = gate();
    let first = true;
    const receiver = startRecorder(async () => {
      if (first) {
        first = false;
        await hold.wait;
      }
      return new Response(null, { status: 204 });
    });
    try {
      const key = t.key({ write: true });
      expect((await t.request("POST", "/v1/ingredients", { key, body: { name: "Maize", price: 100 } })).status).toBe(201);
      expect((await cli(["webhook", "add", receiver.url, "--events", "price.updated", "--data", t.dataPath])).code).toBe(0);
      for (const price of [101, 102, 103, 104]) expect((await t.request("PUT", "/v1/prices/Maize", { key, body: { price } })).status).toBe(200);
      // 101 is in flight, held; 102-104 wait behind it (one ingredient, in order).
      await eventually(() => receiver.requests.length === 1, 10_000);
      stopCluster();
      try {
        // The receiver takes 101 while the database is down: its outcome cannot be written.
        hold.open();
        await eventually(() => t.logs().some((l) => l.msg === "webhook outcome could not be recorded; deliveries paused"), 10_000);
      } finally {
        startCluster();
      }
      const back = performance.now();
      const prices = () => receiver.requests.map((r) => r.json.new_price as number);
      await eventually(() => prices().includes(104), 20_000);
      // Well inside the 60 s lease that used to hold them.
      expect(performance.now() - back).toBeLessThan(30_000);
      // At least once: 101 may come twice (it was received, not recorded), and never after a later price.
      const distinct = prices().filter((p, i, all) => i === 0 || p !== all[i - 1]);
      expect(distinct).toEqual([101, 102, 103, 104]);
    } finally {
      hold.open();
      await t.stop();
      await receiver.stop();
    }
  }, 90_000);

  test("a SIGKILLed instance's claims do not count toward the survivor's cap, and are taken over without waiting for the lease", async () => {
    const hold = gate();
    const receiver = startRecorder(async () => {
      await hold.wait;
      return new Response(null, { status: 204 });
    });
    const tmp = tempDir();
    const instances: ServeProcess[] = [];
    try {
      const { key } = JSON.parse((await cli(["key", "create", "--write", "--rate-limit", "1000000", "--json", "--data", tmp.dataPath])).stdout) as { key: string };
      instances.push(await spawnServe(tmp.dataPath));
      const [a] = instances;
      expect((await cli(["webhook", "add", receiver.url, "--data", tmp.dataPath])).code).toBe(0);
      // Eight ingredients, eight deliveries with no order between them: only the cap holds them back.
      const names = Array.from({ length: 8 }, (_, i) => `Cap ${i}`);
      for (const name of names) {
        const res = await fetch(a!.url + "/v1/ingredients", { method: "POST", headers: { "X-API-Key": key, "Content-Type": "application/json" }, body: JSON.stringify({ name, price: 1 }) });
        expect(res.status).toBe(201);
      }
      // a holds four claims, all hanging at the receiver.
      await eventually(() => receiver.requests.length === 4, 15_000);
      instances.push(await spawnServe(tmp.dataPath));
      a!.proc.kill("SIGKILL");
      await a!.proc.exited;
      // The survivor claims four at once (a's four no longer count), though every attempt still hangs.
      await eventually(() => receiver.requests.length === 8, 15_000);
      hold.open();
      // And every ingredient gets its event, a's four included, long before their 60 s lease ends.
      await eventually(() => new Set(receiver.requests.map((r) => r.json.ingredient)).size === names.length, 20_000);
    } finally {
      hold.open();
      for (const instance of instances) if (instance.proc.exitCode === null && instance.proc.signalCode === null) await instance.stop();
      tmp.cleanup();
      await receiver.stop();
    }
  }, 90_000);
});

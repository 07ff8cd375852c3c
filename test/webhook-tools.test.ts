import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DeliveryListing } from "../src/store/deliveries.ts";
import { cli, eventually, ROOT, startTestServer, type CliResult, type TestServer } from "./helpers/harness.ts";
import { independentHex, independentStandard, startRecorder, type Recorder } from "./helpers/webhooks.ts";

// CLI subprocesses and real receivers on a loaded 2-core machine.
setDefaultTimeout(60_000);

let fast: TestServer; // retries after 50 ms: attempts pile up quickly
let slow: TestServer; // retries after an hour: deliveries wait on their backoff
const recorders: Recorder[] = [];

beforeAll(async () => {
  fast = await startTestServer({ webhooks: { retrySchedule: [0.05, 0.05, 0.05] } });
  slow = await startTestServer({ webhooks: { retrySchedule: [3600, 3600] } });
});
afterAll(async () => {
  await Promise.all(recorders.map((r) => r.stop()));
  await fast.stop();
  await slow.stop();
});

function recorder(...args: Parameters<typeof startRecorder>): Recorder {
  const r = startRecorder(...args);
  recorders.push(r);
  return r;
}

const feedbase = (t: TestServer, args: string[]): Promise<CliResult> => cli(["webhook", ...args, "--data", t.dataPath]);

async function add(t: TestServer, url: string, ...args: string[]): Promise<{ id: string; secret: string; ping?: Record<string, unknown> }> {
  const r = await feedbase(t, ["add", url, "--json", ...args]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

let workspaces = 0;
/** A workspace of its own on server `t`, with a write key; its deliveries as `webhook deliveries --json` lists them. */
async function workspace(t: TestServer) {
  const slug = `tools-${++workspaces}`;
  expect((await cli(["workspace", "create", slug, "--data", t.dataPath])).code).toBe(0);
  const key = t.key({ write: true, workspace: slug });
  return {
    slug,
    post: (name: string, price: number) => t.request("POST", "/v1/ingredients", { key, body: { name, price } }),
    put: (name: string, price: number) => t.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key, body: { price } }),
    deliveries: async (webhookId: string): Promise<DeliveryListing[]> =>
      (await feedbase(t, ["deliveries", "--webhook", webhookId, "--limit", "100", "--json"])).stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as DeliveryListing),
  };
}

describe("webhook ping", () => {
  test("sends a signed ping at once and prints status, time and the start of the body", async () => {
    const ws = await workspace(fast);
    const r = recorder(() => new Response("pong from the ERP\n" + "x".repeat(5000), { status: 200 }));
    const hook = await add(fast, r.url, "--workspace", ws.slug, "--events", "price.updated");
    const out = await feedbase(fast, ["ping", hook.id]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(new RegExp(`^Ping ping_\\w{16} to ${r.url}: answered HTTP 200 in \\d+ ms\n  body: pong from the ERP x+\n$`));
    expect(out.stdout.length).toBeLessThan(400);

    // One request, signed with the webhook's secret in both schemes, whatever events it subscribed to.
    expect(r.requests).toHaveLength(1);
    const req = r.requests[0]!;
    expect(req.headers["x-webhook-event"]).toBe("ping");
    expect(req.headers["webhook-id"]).toMatch(/^ping_\w{16}$/);
    expect(req.headers["x-webhook-id"]).toBe(req.headers["webhook-id"]!);
    expect(req.headers["x-webhook-signature"]).toBe(independentHex(hook.secret, req.bytes));
    expect(req.headers["webhook-signature"]).toBe(independentStandard(hook.secret, req.headers["webhook-id"]!, req.headers["webhook-timestamp"]!, req.bytes));
    expect(req.json).toEqual({ webhook: hook.id, timestamp: expect.stringMatching(/Z$/) });
    // A ping is not a delivery: nothing to retry, nothing in the list.
    expect(await ws.deliveries(hook.id)).toEqual([]);
  });

  test("a receiver that refuses: exit 1 with the status; --json has the fields", async () => {
    const ws = await workspace(fast);
    const r = recorder(() => new Response('{"error":"bad signature"}', { status: 401 }));
    const hook = await add(fast, r.url, "--workspace", ws.slug);
    const out = await feedbase(fast, ["ping", hook.id, "--json"]);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ webhook: hook.id, status: 401, error: "HTTP 401 Unauthorized", body: '{"error":"bad signature"}' });
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
    expect(out.stderr).toContain("HTTP 401");
  });

  test("no receiver at all: exit 1 naming the error; an unknown webhook: exit 1", async () => {
    const ws = await workspace(fast);
    const gone = recorder();
    const url = gone.url;
    await gone.stop();
    const hook = await add(fast, url, "--workspace", ws.slug);
    const out = await feedbase(fast, ["ping", hook.id]);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("failed");
    const unknown = await feedbase(fast, ["ping", "wh_nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("wh_nope");
  });

  test("webhook add --ping pings right after registering", async () => {
    const ws = await workspace(fast);
    const r = recorder();
    const hook = await add(fast, r.url, "--workspace", ws.slug, "--ping");
    expect(hook.ping).toMatchObject({ status: 204, error: null, id: r.requests[0]!.headers["webhook-id"] });
    expect(r.requests[0]!.headers["x-webhook-signature"]).toBe(independentHex(hook.secret, r.requests[0]!.bytes));
    const text = await feedbase(fast, ["add", r.url, "--workspace", ws.slug, "--ping"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Secret: +whsec_[\s\S]*Ping ping_\w+ to .*: answered HTTP 204 in \d+ ms/);
  });
});

describe("every attempt is kept", () => {
  test("deliveries show lists each attempt with time, status or error and ms; a retry keeps the earlier ones", async () => {
    const ws = await workspace(fast);
    const r = recorder((_req, i) => (i < 2 ? new Response("busy", { status: 503 - i * 3 }) : new Response(null, { status: 204 })));
    const hook = await add(fast, r.url, "--workspace", ws.slug);
    await ws.post("Rye", 140);
    await eventually(async () => (await ws.deliveries(hook.id))[0]?.status === "delivered");
    const id = (await ws.deliveries(hook.id))[0]!.id;

    const shown = JSON.parse((await feedbase(fast, ["deliveries", "show", id, "--json"])).stdout);
    expect(shown).toMatchObject({ id, webhookId: hook.id, event: "ingredient.added", ingredient: "Rye", status: "delivered", attempts: 3 });
    expect(shown.attemptHistory.map((a: { number: number; status: number; error: string | null }) => [a.number, a.status, a.error])).toEqual([
      [1, 503, "HTTP 503 Service Unavailable"],
      [2, 500, "HTTP 500 Internal Server Error"],
      [3, 204, null],
    ]);
    for (const a of shown.attemptHistory) {
      expect(a.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(a.ms).toBeGreaterThanOrEqual(0);
    }

    // An admin retry starts a fresh schedule; the history goes on.
    r.answer(() => new Response(null, { status: 500 }));
    expect((await feedbase(fast, ["retry", id])).code).toBe(0);
    await eventually(async () => (await ws.deliveries(hook.id))[0]?.status === "failed");
    const after = JSON.parse((await feedbase(fast, ["deliveries", "show", id, "--json"])).stdout);
    expect(after.attempts).toBe(4);
    expect(after.attemptHistory.map((a: { number: number; status: number }) => [a.number, a.status])).toEqual([
      [1, 503], [2, 500], [3, 204], [4, 500], [5, 500], [6, 500], [7, 500],
    ]);

    const table = await feedbase(fast, ["deliveries", "show", id]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`Delivery:  ${id} (webhook ${hook.id})`);
    expect(table.stdout).toContain("Status:    failed (4 on the current schedule)");
    expect(table.stdout).toMatch(/\n +3 +\S+Z +\d+ ms +HTTP 204\n/);
    expect(table.stdout).toMatch(/\n +1 +\S+Z +\d+ ms +HTTP 503 Service Unavailable\n/);
  });

  test("show: an unknown delivery is exit 1", async () => {
    const r = await feedbase(fast, ["deliveries", "show", "dlv_nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("error: No delivery with id dlv_nope (see feedbase webhook deliveries)\n");
  });
});

describe("retry now", () => {
  /** A webhook whose receiver failed once, so its deliveries wait an hour; then the receiver comes back. */
  async function waitingOnBackoff(names: string[]) {
    const ws = await workspace(slow);
    const r = recorder(() => new Response(null, { status: 500 }));
    const hook = await add(slow, r.url, "--workspace", ws.slug);
    for (const name of names) {
      await ws.post(name, 100);
      await ws.put(name, 101);
      await ws.put(name, 102);
    }
    // Each ingredient's first event was tried once and now waits; its later ones wait behind it.
    await eventually(() => r.requests.length === names.length);
    await eventually(async () => (await ws.deliveries(hook.id)).filter((d) => d.attempts === 1).length === names.length);
    r.answer(() => new Response(null, { status: 204 }));
    return { ws, r, hook };
  }
  const sent = (r: Recorder, name: string) => r.requests.filter((q) => q.json.ingredient === name).map((q) => `${q.headers["x-webhook-event"]} ${q.json.new_price ?? q.json.price}`);

  test("retry <id> of a pending delivery makes it due now, the earlier ones of its ingredient first", async () => {
    const { ws, r, hook } = await waitingOnBackoff(["Oats", "Millet"]);
    // Newest first: Oats' last price change, which waits behind the ingredient.added on its backoff.
    const last = (await ws.deliveries(hook.id)).find((d) => d.ingredient === "Oats")!;
    expect(last).toMatchObject({ event: "price.updated", attempts: 0, status: "pending" });
    const out = await feedbase(slow, ["retry", last.id]);
    expect(out.stdout).toBe("Made 1 delivery due now (pending; earlier ones for the same ingredient go first)\n");
    await eventually(async () => (await ws.deliveries(hook.id)).filter((d) => d.ingredient === "Oats").every((d) => d.status === "delivered"), 10_000);
    expect(sent(r, "Oats")).toEqual(["ingredient.added 100", "ingredient.added 100", "price.updated 101", "price.updated 102"]);
    // The first one kept its attempt count: this was its second attempt.
    const first = (await ws.deliveries(hook.id)).find((d) => d.ingredient === "Oats" && d.event === "ingredient.added")!;
    expect(first.attempts).toBe(2);
    // Millet was not asked for: it still waits on its backoff.
    expect((await ws.deliveries(hook.id)).filter((d) => d.ingredient === "Millet").every((d) => d.status === "pending")).toBe(true);
  });

  test("retry --pending --webhook makes all its waiting deliveries due now, in order per ingredient", async () => {
    const { ws, r, hook } = await waitingOnBackoff(["Spelt", "Sorghum"]);
    const out = await feedbase(slow, ["retry", "--pending", "--webhook", hook.id]);
    // The two first events waited on their backoff; the later ones were due and only waited behind them.
    expect(out.stdout).toBe("Made 2 deliveries due now\n");
    await eventually(async () => (await ws.deliveries(hook.id)).every((d) => d.status === "delivered"), 10_000);
    for (const name of ["Spelt", "Sorghum"]) expect(sent(r, name)).toEqual(["ingredient.added 100", "ingredient.added 100", "price.updated 101", "price.updated 102"]);
  });

  test("retry for a disabled webhook says so: its deliveries wait for enable", async () => {
    const { hook } = await waitingOnBackoff(["Quinoa"]);
    expect((await feedbase(slow, ["disable", hook.id])).code).toBe(0);
    const out = await feedbase(slow, ["retry", "--pending", "--webhook", hook.id]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe("Made 1 delivery due now\n");
    expect(out.stderr).toMatch(new RegExp(`^note: ${hook.id} is disabled \\(disabled by an admin at \\S+\\): its 3 pending wait for feedbase webhook enable ${hook.id}\n$`));
  });

  test("--webhook without --failed or --pending, or two modes at once, is exit 2", async () => {
    for (const args of [["retry", "dlv_x", "--webhook", "wh_x"], ["retry", "--failed", "--pending"], ["retry", "dlv_x", "--pending"]]) {
      const r = await feedbase(slow, args);
      expect([args, r.code]).toEqual([args, 2]);
    }
  });
});

describe("feedbase receive", () => {
  /** `feedbase receive` as a subprocess on a free port, with its output collected. */
  async function receive(args: string[], env: Record<string, string> = {}) {
    const proc = Bun.spawn([process.execPath, join(ROOT, "cli", "main.ts"), "receive", "--port", "0", ...args], {
      cwd: ROOT,
      env: { ...process.env, FEEDBASE_WEBHOOK_SECRET: "", ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const output = { out: "", err: "" };
    const pump = async (stream: ReadableStream<Uint8Array>, key: "out" | "err") => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) output[key] += decoder.decode(chunk, { stream: true });
    };
    const pumps = Promise.all([pump(proc.stdout, "out"), pump(proc.stderr, "err")]);
    await eventually(() => /Listening on (\S+)/.test(output.out) || proc.exitCode !== null, 15_000);
    const url = /Listening on (\S+)/.exec(output.out)?.[1];
    if (!url) throw new Error(`receive did not start: ${output.err}`);
    return {
      url,
      output,
      async stop() {
        proc.kill();
        await proc.exited;
        await pumps;
      },
    };
  }

  test("accepts either of two secrets across a rotation, prints what arrived raw and saves each delivery", async () => {
    const dir = mkdtempSync(join(tmpdir(), "feedbase-receive-"));
    try {
      const [oldFile, newFile] = [join(dir, "old.secret"), join(dir, "new.secret")];
      writeFileSync(oldFile, "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX\n");
      writeFileSync(newFile, "whsec_GBkaGxwdHh8gISIjJCUmJygpKissLS4v\n");
      const saved = join(dir, "saved");
      const receiver = await receive(["--secret-file", oldFile, "--secret-file", newFile, "--print", "ALL", "--save-dir", saved]);
      try {
        expect(receiver.output.out).toContain("2 secrets");
        const ws = await workspace(fast);
        const hook = await add(fast, receiver.url, "--workspace", ws.slug, "--secret-file", oldFile);
        await ws.post("Teff", 300);
        await eventually(async () => (await ws.deliveries(hook.id))[0]?.status === "delivered");
        expect((await feedbase(fast, ["rotate-secret", hook.id, "--secret-file", newFile])).code).toBe(0);
        await ws.put("Teff", 310);
        await eventually(async () => {
          const all = await ws.deliveries(hook.id);
          return all.length === 2 && all.every((d) => d.status === "delivered");
        });
        expect((await feedbase(fast, ["ping", hook.id])).code).toBe(0);
        // One signed with neither secret.
        const forged = await fetch(receiver.url, {
          method: "POST",
          headers: { "webhook-id": "dlv_forged", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA", "X-Webhook-Signature": "0".repeat(64) },
          body: '{"ingredient":"Teff","old_price":310,"new_price":1}',
        });
        expect(forged.status).toBe(401);
        // The refusal's line and its raw body are two writes: wait for the second too.
        await eventually(() => receiver.output.err.includes('"new_price":1}') && receiver.output.out.includes(" ping "));

        const lines = receiver.output.out.split("\n");
        expect(lines.filter((l) => /^\S+Z (ingredient\.added|price\.updated|ping) \S+ .*\(signatures ok\)$/.test(l))).toHaveLength(3);
        // --print all: the raw headers and body under each line.
        expect(receiver.output.out).toContain("\n  x-webhook-event: price.updated\n");
        expect(receiver.output.out).toMatch(/\n {2}webhook-signature: v1,\S+\n/);
        expect(receiver.output.out).toMatch(/\n {2}\{"ingredient":"Teff","old_price":300,"new_price":310,"timestamp":"[^"]+"\}\n/);
        expect(receiver.output.err).toContain('  {"ingredient":"Teff","old_price":310,"new_price":1}');

        // --save-dir: each arrival as .json and .body; the bytes verify against the saved headers.
        const files = readdirSync(saved).sort();
        expect(files.filter((f) => f.endsWith(".json"))).toHaveLength(4);
        expect(files.filter((f) => f.endsWith(".body"))).toHaveLength(4);
        const records = files.filter((f) => f.endsWith(".json")).map((f) => ({ f, json: JSON.parse(readFileSync(join(saved, f), "utf8")), body: readFileSync(join(saved, f.replace(/\.json$/, ".body"))) }));
        const update = records.find((r) => r.json.headers["x-webhook-event"] === "price.updated")!;
        expect(update.f).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-dlv_\w+\.json$/);
        expect(update.json).toMatchObject({ method: "POST", path: "/", status: 204, reason: null, body: update.body.toString("utf8") });
        expect(update.json.headers["x-webhook-signature"]).toBe(independentHex("whsec_GBkaGxwdHh8gISIjJCUmJygpKissLS4v", update.body));
        expect(records.find((r) => r.json.headers["webhook-id"] === "dlv_forged")!.json).toMatchObject({ status: 401 });
      } finally {
        await receiver.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("FEEDBASE_WEBHOOK_SECRET may hold several secrets, comma-separated", async () => {
    const ws = await workspace(fast);
    const receiver = await receive([], { FEEDBASE_WEBHOOK_SECRET: "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX, correct horse battery staple" });
    try {
      const hook = JSON.parse(
        (await cli(["webhook", "add", receiver.url, "--workspace", ws.slug, "--json", "--data", fast.dataPath], { env: { FEEDBASE_WEBHOOK_SECRET: "correct horse battery staple" } })).stdout,
      );
      const ping = await feedbase(fast, ["ping", hook.id]);
      expect(ping.code).toBe(0);
      expect(ping.stdout).toContain("answered HTTP 204");
    } finally {
      await receiver.stop();
    }
  });
});

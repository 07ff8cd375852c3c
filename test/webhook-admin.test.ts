import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DeliveryListing } from "../src/store/deliveries.ts";
import { cli, eventually, ROOT, startTestServer, tempDir, type CliResult, type TestServer } from "./helpers/harness.ts";
import { gate, independentHex, independentStandard, startRecorder, type Recorder } from "./helpers/webhooks.ts";

let t: TestServer;
const tmp = tempDir();
const recorders: Recorder[] = [];
/** Output of every command except `add` and `rotate-secret`, which alone may print a secret. */
const quietOutput: string[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ webhooks: { retrySchedule: [0.05, 0.05, 0.05] } });
});
afterAll(async () => {
  await Promise.all(recorders.map((r) => r.stop()));
  await t.stop();
  tmp.cleanup();
});

async function feedbase(args: string[], env?: Record<string, string>): Promise<CliResult> {
  const r = await cli(["webhook", ...args, "--data", t.dataPath], env ? { env } : {});
  if (args[0] !== "add" && args[0] !== "rotate-secret") quietOutput.push(r.stdout + r.stderr);
  return r;
}

async function add(url: string, ...args: string[]): Promise<{ id: string; secret: string }> {
  const r = await feedbase(["add", url, "--json", ...args]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const created = JSON.parse(r.stdout);
  secrets.push(created.secret);
  return created;
}

function recorder(...args: Parameters<typeof startRecorder>): Recorder {
  const r = startRecorder(...args);
  recorders.push(r);
  return r;
}

let workspaces = 0;
async function workspace() {
  const slug = `admin-${++workspaces}`;
  expect((await cli(["workspace", "create", slug, "--data", t.dataPath])).code).toBe(0);
  const key = t.key({ write: true, workspace: slug });
  return {
    slug,
    post: (body: unknown) => t.request("POST", "/v1/ingredients", { key, body }),
    put: (name: string, price: number) => t.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key, body: { price } }),
  };
}

const list = async (slug: string) => {
  const r = await feedbase(["list", "--workspace", slug, "--json"]);
  expect(r.code).toBe(0);
  return r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
};
/** A webhook's deliveries as `webhook deliveries --json` lists them. */
const deliveries = async (webhookId: string): Promise<DeliveryListing[]> =>
  (await cli(["webhook", "deliveries", "--webhook", webhookId, "--limit", "100", "--json", "--data", t.dataPath])).stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as DeliveryListing);
const status = (code: number) => () => new Response(null, { status: code });

describe("feedbase webhook add and list", () => {
  test("add generates a whsec_ secret and prints it once with the id; list shows status and counts, never a secret", async () => {
    const ws = await workspace();
    const r = recorder();
    const table = await feedbase(["add", r.url, "--workspace", ws.slug, "--events", "price.updated"]);
    expect(table.code).toBe(0);
    const id = /Webhook: (wh_[0-9A-Za-z]{12})/.exec(table.stdout)![1]!;
    const secret = /Secret: +(whsec_\S+)/.exec(table.stdout)![1]!;
    secrets.push(secret);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);

    const rows = await list(ws.slug);
    expect(rows).toEqual([
      { id, workspace: ws.slug, url: r.url, events: ["price.updated"], status: "enabled", disabledReason: null, pending: 0, failed: 0, createdAt: expect.any(String) },
    ]);
    const text = await feedbase(["list", "--workspace", ws.slug]);
    expect(text.stdout).toMatch(new RegExp(`${id} +${ws.slug} +\\S+ +price.updated +enabled +0 +0 `));

    // The secret it printed is the one deliveries are signed with.
    await ws.post({ name: "Maize", price: 200 });
    await ws.put("Maize", 210);
    await eventually(() => r.requests.length === 1);
    expect(r.requests[0]!.headers["x-webhook-signature"]).toBe(independentHex(secret, r.requests[0]!.bytes));
  });

  test("issue 29: link-local receivers (cloud metadata) and URLs with user:pass@ are refused with a clear message; loopback and private addresses are still taken", async () => {
    const ws = await workspace();
    const refused = async (url: string) => {
      const r = await feedbase(["add", url, "--workspace", ws.slug]);
      return { code: r.code, stdout: r.stdout, stderr: r.stderr.trim() };
    };
    const linkLocal = "must not point to a link-local address (169.254.0.0/16, fe80::/10)";
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://2852039166/", "https://169.254.1.2:8443/hooks", "http://[fe80::1]/", "http://[FEBF::a:b]:9090/x", "http://[::ffff:169.254.169.254]/"]) {
      const r = await refused(url);
      expect({ url, code: r.code, stdout: r.stdout }).toEqual({ url, code: 2, stdout: "" });
      expect(r.stderr).toContain(linkLocal);
      expect(r.stderr.split("\n")).toHaveLength(1);
    }
    for (const url of ["https://erp:s3cret@erp.example/hooks", "http://user@127.0.0.1:9090/"]) {
      const r = await refused(url);
      expect({ url, code: r.code }).toEqual({ url, code: 2 });
      expect(r.stderr).toContain("must not hold a user name or password (user:pass@)");
      expect(r.stderr).not.toContain("s3cret");
    }
    // Nothing of them was stored; loopback, private and fe-but-not-link-local addresses are taken.
    expect(await list(ws.slug)).toEqual([]);
    for (const url of ["http://127.0.0.1:9/", "http://[::1]:9/", "http://10.0.0.5/hooks", "http://169.255.0.1/", "http://[fec0::1]/"]) {
      expect({ url, code: (await feedbase(["add", url, "--workspace", ws.slug])).code }).toEqual({ url, code: 0 });
    }
  });

  test("a secret comes from --secret-file (trailing newline dropped) or FEEDBASE_WEBHOOK_SECRET", async () => {
    const ws = await workspace();
    const fromFile = recorder();
    const fromEnv = recorder();
    const file = join(tmp.dir, "erp.secret");
    writeFileSync(file, "correct horse battery staple\n");
    const a = await add(fromFile.url, "--workspace", ws.slug, "--secret-file", file);
    expect(a.secret).toBe("correct horse battery staple");
    const b = JSON.parse((await cli(["webhook", "add", fromEnv.url, "--workspace", ws.slug, "--json", "--data", t.dataPath], { env: { FEEDBASE_WEBHOOK_SECRET: "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX" } })).stdout);
    expect(b.secret).toBe("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX");
    await ws.post({ name: "Wheat", price: 180 });
    await eventually(() => fromFile.requests.length === 1 && fromEnv.requests.length === 1);
    for (const [r, secret] of [[fromFile, a.secret], [fromEnv, b.secret]] as const) {
      const req = r.requests[0]!;
      expect(req.headers["x-webhook-signature"]).toBe(independentHex(secret, req.bytes));
      expect(req.headers["webhook-signature"]).toBe(independentStandard(secret, req.headers["webhook-id"]!, req.headers["webhook-timestamp"]!, req.bytes));
    }
  });

  test("bad usage exits 2 with one line; an unknown workspace or unreadable secret file exits 1", async () => {
    const short = join(tmp.dir, "short.secret");
    writeFileSync(short, "hunter2\n");
    const usage = [
      ["add", "ftp://example.com/hook"],
      ["add", "not a url"],
      ["add", "https://example.com/hook", "--events", "price.updated,price.deleted"],
      ["add", "https://example.com/hook", "--secret-file", short],
      ["add", "https://example.com/hook", "--secret", "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"],
      ["deliveries", "--status", "lost"],
      ["deliveries", "--limit", "0"],
      ["retry"],
      ["retry", "dlv_x", "--failed"],
    ];
    const refused = [
      ["add", "https://example.com/hook", "--workspace", "nowhere"],
      ["add", "https://example.com/hook", "--secret-file", join(tmp.dir, "missing")],
    ];
    const results = await Promise.all([...usage, ...refused].map((args) => feedbase(args)));
    results.forEach((r, i) => {
      expect([i, r.code]).toEqual([i, i < usage.length ? 2 : 1]);
      expect(r.stderr).toStartWith("error");
    });
    expect(results[3]!.stderr).toBe("error: Webhook secret must be at least 16 characters (got 7)\n");
    for (const r of results.slice(usage.length)) expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("feedbase webhook disable, enable, rotate-secret, remove", () => {
  test("disable holds pending deliveries and makes no new ones; enable resumes them", async () => {
    const ws = await workspace();
    const hold = gate();
    const held = recorder(async (_, i) => {
      if (i === 0) {
        await hold.wait;
        return new Response(null, { status: 500 });
      }
      return new Response(null, { status: 204 });
    });
    const other = recorder();
    const h = await add(held.url, "--workspace", ws.slug);
    await add(other.url, "--workspace", ws.slug);
    await ws.post({ name: "Barley", price: 170 });
    await eventually(() => held.open() === 1);

    expect((await feedbase(["disable", h.id])).stdout).toBe(`Disabled ${h.id}\n`);
    hold.open(); // the attempt in flight fails with 500 after the webhook was disabled
    await eventually(async () => (await deliveries(h.id))[0]?.attempts === 1);
    const [row] = (await list(ws.slug)).filter((w) => w.id === h.id);
    expect(row).toMatchObject({ status: "disabled", pending: 1, failed: 0 });
    expect(row.disabledReason).toMatch(/^disabled by an admin at /);
    expect((await feedbase(["list", "--workspace", ws.slug])).stdout).toContain("disabled (disabled by an admin at ");

    // Its retry fell due; the loop delivered a later event to the other webhook and still left it alone.
    const due = Date.parse((await deliveries(h.id))[0]!.nextAttemptAt!);
    await eventually(() => Date.now() > due);
    await ws.put("Barley", 171);
    await eventually(() => other.requests.length === 2);
    expect(await deliveries(h.id)).toHaveLength(1); // no delivery for the event made while disabled
    expect((await deliveries(h.id))[0]).toMatchObject({ status: "pending", attempts: 1 });
    expect(held.requests).toHaveLength(1);

    expect((await feedbase(["enable", h.id])).stdout).toBe(`Enabled ${h.id} (1 pending delivery resumes)\n`);
    await eventually(async () => (await deliveries(h.id))[0]?.status === "delivered");
    expect(held.requests.map((q) => q.json.ingredient)).toEqual(["Barley", "Barley"]);
    expect((await list(ws.slug)).find((w) => w.id === h.id)).toMatchObject({ status: "enabled", disabledReason: null, pending: 0 });
  });

  test("rotate-secret prints a new secret and every later attempt, a pending retry included, is signed with it", async () => {
    const ws = await workspace();
    const hold = gate();
    const r = recorder(async (_, i) => {
      if (i > 0) return new Response(null, { status: 204 });
      await hold.wait;
      return new Response(null, { status: 503 });
    });
    const h = await add(r.url, "--workspace", ws.slug);
    await ws.post({ name: "Sorghum", price: 160 });
    await eventually(() => r.open() === 1);

    const rotated = await feedbase(["rotate-secret", h.id]);
    expect(rotated.code).toBe(0);
    const secret = /Secret: +(whsec_\S+)/.exec(rotated.stdout)![1]!;
    secrets.push(secret);
    expect(secret).not.toBe(h.secret);
    hold.open();

    await eventually(async () => (await deliveries(h.id))[0]?.status === "delivered");
    const [first, retry] = r.requests;
    expect(first!.headers["x-webhook-signature"]).toBe(independentHex(h.secret, first!.bytes));
    expect(retry!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]!);
    expect(retry!.headers["x-webhook-signature"]).toBe(independentHex(secret, retry!.bytes));
    expect(retry!.headers["webhook-signature"]).toBe(independentStandard(secret, retry!.headers["webhook-id"]!, retry!.headers["webhook-timestamp"]!, retry!.bytes));

    const json = JSON.parse((await feedbase(["rotate-secret", h.id, "--json"])).stdout);
    expect(json).toEqual({ id: h.id, secret: expect.stringMatching(/^whsec_/) });
    secrets.push(json.secret);
  });

  test("remove cancels pending deliveries and the webhook is gone; unknown ids exit 1", async () => {
    const ws = await workspace();
    const r = recorder(status(410)); // disables it, leaving its delivery pending
    const h = await add(r.url, "--workspace", ws.slug);
    await ws.post({ name: "Oats", price: 150 });
    await eventually(async () => (await deliveries(h.id))[0]?.attempts === 1);
    const [row] = await list(ws.slug);
    expect(row).toMatchObject({ id: h.id, status: "disabled", pending: 1 });
    expect(row.disabledReason).toContain("410");

    expect((await feedbase(["remove", h.id])).stdout).toBe(`Removed ${h.id} (1 pending delivery cancelled)\n`);
    expect(await list(ws.slug)).toEqual([]);
    expect(await deliveries(h.id)).toEqual([]);
    for (const gone of await Promise.all(["remove", "enable", "disable", "rotate-secret"].map((command) => feedbase([command, h.id])))) {
      expect(gone.code).toBe(1);
      expect(gone.stderr).toBe(`error: No webhook with id ${h.id} (see feedbase webhook list)\n`);
    }
  });
});

describe("feedbase webhook deliveries and retry", () => {
  test("deliveries shows attempts, last status code and error; retry re-queues failed and delivered ones", async () => {
    const ws = await workspace();
    const r = recorder(status(500));
    const h = await add(r.url, "--workspace", ws.slug);
    await ws.post({ name: "Rye", price: 140 });
    await ws.post({ name: "Triticale", price: 145 });
    await eventually(async () => (await deliveries(h.id)).every((d) => d.status === "failed") && (await deliveries(h.id)).length === 2);

    const failed = (await feedbase(["deliveries", "--webhook", h.id, "--status", "failed", "--json"])).stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({ webhookId: h.id, event: "ingredient.added", ingredient: "Triticale", status: "failed", attempts: 4, lastStatus: 500, lastError: "HTTP 500 Internal Server Error", nextAttemptAt: null });
    expect(Object.keys(failed[0])).toEqual(["id", "webhookId", "event", "ingredient", "status", "attempts", "lastStatus", "lastError", "nextAttemptAt", "createdAt", "updatedAt"]);
    const table = await feedbase(["deliveries", "--webhook", h.id, "--limit", "1"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^ID +WEBHOOK +EVENT +INGREDIENT +STATUS +ATTEMPTS +LAST +ERROR +NEXT ATTEMPT +CREATED$/);
    expect(table.stdout).toContain(`${failed[0].id}  ${h.id}  ingredient.added  Triticale   failed  4         500   HTTP 500 Internal Server Error`);
    expect(table.stdout.trim().split("\n")).toHaveLength(2);
    expect((await list(ws.slug))[0]).toMatchObject({ pending: 0, failed: 2 });

    // One by id: a fresh schedule, picked up by the running server.
    r.answer(status(204));
    const one = failed[1].id;
    expect((await feedbase(["retry", one])).stdout).toBe("Re-queued 1 delivery\n");
    await eventually(async () => (await deliveries(h.id)).find((d) => d.id === one)?.status === "delivered");
    expect((await deliveries(h.id)).find((d) => d.id === one)).toMatchObject({ attempts: 1, lastStatus: 204, lastError: null });

    // All failed ones.
    expect((await feedbase(["retry", "--failed", "--webhook", h.id])).stdout).toBe("Re-queued 1 delivery\n");
    await eventually(async () => (await deliveries(h.id)).every((d) => d.status === "delivered"));
    const bodies = r.requests.map((q) => q.text);
    expect(bodies.slice(-2).map((b) => JSON.parse(b).ingredient).sort()).toEqual(["Rye", "Triticale"]);

    // A delivered one may be sent again (same id, same bytes); a pending one is refused.
    const before = r.requests.length;
    expect((await feedbase(["retry", one])).code).toBe(0);
    await eventually(() => r.requests.length === before + 1);
    expect(r.requests.at(-1)!.headers["webhook-id"]).toBe(one);
    expect(r.requests.at(-1)!.text).toBe(bodies[r.requests.findIndex((q) => q.headers["webhook-id"] === one)]!);
    // The receiver has it; its outcome is written just after.
    await eventually(async () => (await deliveries(h.id)).find((d) => d.id === one)?.status === "delivered");

    // An unknown id refuses the whole request (all or nothing); pending ones: test/webhook-tools.test.ts.
    const unknown = await feedbase(["retry", one, "dlv_nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("dlv_nope");
    expect((await deliveries(h.id)).find((d) => d.id === one)!.status).toBe("delivered");
  });
});

describe("feedbase receive", () => {
  test("prints a verified delivery readably and answers 401 to a bad signature", async () => {
    const ws = await workspace();
    const file = join(tmp.dir, "receive.secret");
    writeFileSync(file, "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX\n");
    const proc = Bun.spawn([process.execPath, join(ROOT, "cli", "main.ts"), "receive", "--secret-file", file, "--port", "0"], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    let out = "";
    let err = "";
    const pump = async (stream: ReadableStream<Uint8Array>, sink: (s: string) => void) => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) sink(decoder.decode(chunk, { stream: true }));
    };
    const pumps = Promise.all([pump(proc.stdout, (s) => (out += s)), pump(proc.stderr, (s) => (err += s))]);
    try {
      await eventually(() => /Listening on (\S+)/.test(out), 10_000);
      const url = /Listening on (\S+)/.exec(out)![1]!;
      const h = await add(url + "hooks/feedbase", "--workspace", ws.slug, "--secret-file", file);
      await ws.post({ name: "Soybean meal 48%", category: "Protein meals", price: 455 });
      await ws.put("Soybean meal 48%", 462.5);
      await eventually(async () => (await deliveries(h.id)).every((d) => d.status === "delivered") && (await deliveries(h.id)).length === 2);
      const lines = out.trim().split("\n").slice(1);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^\S+Z ingredient\.added dlv_\S+  Soybean meal 48% \(Protein meals\) 455 \(signatures ok\)$/);
      expect(lines[1]).toMatch(/^\S+Z price\.updated dlv_\S+  Soybean meal 48% 455 → 462\.5 \(signatures ok\)$/);

      const forged = await fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Webhook-Event": "price.updated",
          "X-Webhook-Signature": "0".repeat(64),
          "X-Webhook-Id": "dlv_forged",
          "webhook-id": "dlv_forged",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": "v1,AAAA",
        },
        body: '{"ingredient":"Maize","old_price":1,"new_price":0,"timestamp":"2026-11-21T14:03:07.123Z"}',
      });
      expect(forged.status).toBe(401);
      await eventually(() => err.includes("dlv_forged"));
      expect(err).toContain("401 Invalid signatures");
      expect(out.trim().split("\n")).toHaveLength(3);
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      await pumps;
    }
  });

  test("receive without a secret is a usage error", async () => {
    const r = await cli(["receive", "--port", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: give the webhook's secret with --secret-file (repeat it for several) or env FEEDBASE_WEBHOOK_SECRET (comma-separated)\n");
  });
});

describe("secrets", () => {
  test("no command but add and rotate-secret printed a secret", () => {
    expect(secrets.length).toBeGreaterThan(5);
    expect(quietOutput.length).toBeGreaterThan(20);
    const everything = quietOutput.join("\n");
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});

import { afterEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { generateSecret, secretKeyBytes, validateSuppliedSecret } from "../src/webhooks/secret.ts";
import { hexSignature, signedHeaders, standardSignature } from "../src/webhooks/sign.ts";
import { verifyDelivery } from "../src/webhooks/verify.ts";
import { formatEvent, startReceiver, type ReceivedEvent, type RejectedRequest } from "../src/webhooks/receiver.ts";
import { eventually } from "./helpers/harness.ts";

// The vector published in docs/webhook-verification.md; the docs' scripts embed the same values.
const VECTOR = {
  secret: "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX",
  deliveryId: "dlv_2f9QxR7mKp4LwT8z",
  timestamp: 1795269787,
  body: '{"ingredient":"Soybean meal 48%","old_price":455,"new_price":462.5,"timestamp":"2026-11-21T14:03:07.123Z"}',
  hex: "8acce239873c3e85647f4741ef183cc70e87e6bb4d398c3c5ad87b13c49b45b7",
  standard: "v1,SCAND/Y4SVld7L8IFMCPfu0YDgf/OSGYbOqJ40ULyy4=",
};

const ROOT = new URL("..", import.meta.url).pathname;

/** Standard Webhooks as its spec describes it, written without feedbase code. */
function referenceStandard(secret: string, id: string, ts: number, body: Buffer): string {
  const rest = secret.startsWith("whsec_") ? secret.slice(6) : "";
  const isBase64 = rest.length > 0 && Buffer.from(rest, "base64").toString("base64") === rest;
  const key = isBase64 ? Buffer.from(rest, "base64") : Buffer.from(secret, "utf8");
  const mac = createHmac("sha256", key).update(Buffer.concat([Buffer.from(`${id}.${ts}.`), body]));
  return "v1," + mac.digest("base64");
}

function referenceHex(secret: string, body: Buffer): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex");
}

function vectorHeaders(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...signedHeaders({
      secret: VECTOR.secret,
      deliveryId: VECTOR.deliveryId,
      event: "price.updated",
      body: VECTOR.body,
      nowSeconds: VECTOR.timestamp,
      version: "1.0.0",
    }),
    ...overrides,
  };
}

async function run(cmd: string[], stdin: string): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdin: new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, out: out + err };
}

function cliArgs(secret: string, headers: Record<string, string>, now: number): string[] {
  const args = ["--secret", secret, "--now", String(now)];
  for (const name of ["X-Webhook-Signature", "X-Webhook-Id", "webhook-id", "webhook-timestamp", "webhook-signature"]) {
    const value = headers[name];
    if (value !== undefined) args.push("-H", `${name}: ${value}`);
  }
  return args;
}

const VERIFIERS = [
  ["node", ["node", "docs/verify/verify.mjs"]],
  ["python3", ["python3", "docs/verify/verify.py"]],
] as const;

describe("signing", () => {
  test("the documented vector", () => {
    expect(Buffer.from(secretKeyBytes(VECTOR.secret)).toString("hex")).toBe(
      "000102030405060708090a0b0c0d0e0f1011121314151617",
    );
    expect(hexSignature(VECTOR.secret, VECTOR.body)).toBe(VECTOR.hex);
    expect(hexSignature(VECTOR.secret, new TextEncoder().encode(VECTOR.body))).toBe(VECTOR.hex);
    expect(standardSignature(VECTOR.secret, VECTOR.deliveryId, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.standard);
    expect(vectorHeaders()).toEqual({
      "Content-Type": "application/json",
      "X-Webhook-Event": "price.updated",
      "X-Webhook-Signature": VECTOR.hex,
      "X-Webhook-Id": VECTOR.deliveryId,
      "webhook-id": VECTOR.deliveryId,
      "webhook-timestamp": String(VECTOR.timestamp),
      "webhook-signature": VECTOR.standard,
      "User-Agent": "feedbase/1.0.0",
    });
    expect(verifyDelivery({ secret: VECTOR.secret, headers: vectorHeaders(), body: VECTOR.body, nowSeconds: VECTOR.timestamp }))
      .toEqual({ ok: true });
  });

  test("the vector appears verbatim in the docs and both scripts", async () => {
    for (const file of ["docs/webhook-verification.md", "docs/verify/verify.mjs", "docs/verify/verify.py"]) {
      const text = await Bun.file(ROOT + file).text();
      for (const value of [VECTOR.secret, VECTOR.deliveryId, String(VECTOR.timestamp), VECTOR.body, VECTOR.hex, VECTOR.standard]) {
        expect(text).toContain(value);
      }
    }
  });

  test("an independent node:crypto implementation agrees", () => {
    const secrets = [generateSecret(), generateSecret(), "a plain passphrase, 30 chars..", "whsec_not base64 at all!!", "Ünïcødé secret ✓ 1234"];
    const bodies = ["{}", VECTOR.body, '{"ingredient":"Maïs – grain","price":219}', "x".repeat(5000)];
    for (const secret of secrets) {
      for (const text of bodies) {
        const body = Buffer.from(text);
        const id = "dlv_" + crypto.randomUUID();
        const ts = 1_700_000_000 + Math.floor(Math.random() * 1e8);
        expect(standardSignature(secret, id, ts, text)).toBe(referenceStandard(secret, id, ts, body));
        expect(standardSignature(secret, id, ts, new Uint8Array(body))).toBe(referenceStandard(secret, id, ts, body));
        expect(hexSignature(secret, text)).toBe(referenceHex(secret, body));
      }
    }
  });

  test("generateSecret is whsec_ + base64 of 24 random bytes", () => {
    const a = generateSecret();
    const b = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(a).not.toBe(b);
    expect(secretKeyBytes(a).length).toBe(24);
  });

  test("a secret without the whsec_+base64 form is UTF-8 for both schemes", () => {
    for (const secret of ["my-mill-webhook-secret-2026", "whsec_abc", "whsec_!!!!notbase64", "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRY", "whsec_"]) {
      const utf8 = new TextEncoder().encode(secret);
      expect(secretKeyBytes(secret)).toEqual(utf8);
      const expected = "v1," + createHmac("sha256", utf8).update(`id.1.${VECTOR.body}`).digest("base64");
      expect(standardSignature(secret, "id", 1, VECTOR.body)).toBe(expected);
      expect(hexSignature(secret, VECTOR.body)).toBe(createHmac("sha256", utf8).update(VECTOR.body).digest("hex"));
    }
  });

  test("supplied secrets shorter than 16 characters are refused", () => {
    expect(() => validateSuppliedSecret("short")).toThrow(/at least 16 characters/);
    expect(() => validateSuppliedSecret("fifteen-chars!!")).toThrow(/got 15/);
    expect(() => validateSuppliedSecret("sixteen-chars!!!")).not.toThrow();
    // Characters, not UTF-16 units: 15 emoji are 30 units but still too short.
    expect(() => validateSuppliedSecret("🐄".repeat(15))).toThrow(/got 15/);
  });

  test("non-integer timestamps are refused rather than signed as text no verifier reproduces", () => {
    expect(() => standardSignature(VECTOR.secret, "id", 1795269787.5, "{}")).toThrow(RangeError);
  });
});

describe("verifyDelivery", () => {
  const base = { secret: VECTOR.secret, body: VECTOR.body };

  test("timestamp tolerance, both directions", () => {
    const headers = vectorHeaders();
    expect(verifyDelivery({ ...base, headers, nowSeconds: VECTOR.timestamp + 300 }).ok).toBe(true);
    expect(verifyDelivery({ ...base, headers, nowSeconds: VECTOR.timestamp - 300 }).ok).toBe(true);
    const stale = verifyDelivery({ ...base, headers, nowSeconds: VECTOR.timestamp + 301 });
    expect(stale).toEqual({ ok: false, reason: expect.stringContaining("tolerance") });
    expect(verifyDelivery({ ...base, headers, nowSeconds: VECTOR.timestamp - 301 }).ok).toBe(false);
    expect(verifyDelivery({ ...base, headers, nowSeconds: VECTOR.timestamp + 3600, toleranceSeconds: 3600 }).ok).toBe(true);
    // Defaults to the real clock, and the vector is not "now".
    expect(verifyDelivery({ ...base, headers }).ok).toBe(Math.abs(Date.now() / 1000 - VECTOR.timestamp) <= 300);
  });

  test("bad signatures and tampering", () => {
    const now = VECTOR.timestamp;
    const check = (headers: Record<string, string>, body: string = VECTOR.body) =>
      verifyDelivery({ secret: VECTOR.secret, headers, body, nowSeconds: now });

    expect(check(vectorHeaders(), VECTOR.body.replace("462.5", "46.25"))).toEqual({ ok: false, reason: "Invalid signatures" });
    expect(check(vectorHeaders({ "X-Webhook-Signature": "0".repeat(64) }))).toEqual({ ok: false, reason: "Invalid X-Webhook-Signature" });
    expect(check(vectorHeaders({ "webhook-signature": "v1,AAAA" }))).toEqual({ ok: false, reason: "Invalid webhook-signature" });
    // The id and timestamp are signed: changing either breaks the standard signature.
    expect(check(vectorHeaders({ "webhook-id": "dlv_other", "X-Webhook-Id": "dlv_other" })).ok).toBe(false);
    expect(check(vectorHeaders({ "webhook-timestamp": String(now - 1) })).ok).toBe(false);
    // An unsigned X-Webhook-Id that disagrees would defeat de-duplication.
    expect(check(vectorHeaders({ "X-Webhook-Id": "dlv_other" }))).toEqual({ ok: false, reason: "X-Webhook-Id does not match webhook-id" });
    expect(check(vectorHeaders({ "webhook-timestamp": "17e8" })).ok).toBe(false);
    expect(verifyDelivery({ ...base, secret: generateSecret(), headers: vectorHeaders(), nowSeconds: now }).ok).toBe(false);

    const { "webhook-signature": _dropped, ...withoutStandard } = vectorHeaders();
    expect(check(withoutStandard)).toEqual({ ok: false, reason: "Missing header: webhook-signature" });

    // Upper-case hex is the same signature.
    expect(check(vectorHeaders({ "X-Webhook-Signature": VECTOR.hex.toUpperCase() })).ok).toBe(true);
  });

  test("any of several v1 signatures may match; other versions are ignored", () => {
    const now = VECTOR.timestamp;
    const several = `v1a,${VECTOR.standard.slice(3)} v1,bm90IHRoaXMgb25l ${VECTOR.standard}`;
    expect(verifyDelivery({ ...base, headers: vectorHeaders({ "webhook-signature": several }), nowSeconds: now }).ok).toBe(true);
    const onlyOther = `v1a,${VECTOR.standard.slice(3)}`;
    expect(verifyDelivery({ ...base, headers: vectorHeaders({ "webhook-signature": onlyOther }), nowSeconds: now }).ok).toBe(false);
  });

  test("accepts Fetch Headers and any header-name case", () => {
    const lower = Object.fromEntries(Object.entries(vectorHeaders()).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyDelivery({ ...base, headers: lower, nowSeconds: VECTOR.timestamp }).ok).toBe(true);
    expect(verifyDelivery({ ...base, headers: new Headers(vectorHeaders()), nowSeconds: VECTOR.timestamp }).ok).toBe(true);
  });
});

describe("docs/verify scripts", () => {
  for (const [name, cmd] of VERIFIERS) {
    test(`${name} accepts the vector and rejects tampering`, async () => {
      expect(await run([...cmd, "--vector"], "")).toEqual({ code: 0, out: "ok\n" });

      const args = cliArgs(VECTOR.secret, vectorHeaders(), VECTOR.timestamp);
      expect(await run([...cmd, ...args], VECTOR.body)).toEqual({ code: 0, out: "ok\n" });

      const tampered = await run([...cmd, ...args], VECTOR.body.replace("462.5", "426.5"));
      expect(tampered.code).toBe(1);
      expect(tampered.out).toStartWith("rejected:");

      // A trailing newline is a different body: the scripts must not normalise the raw bytes.
      expect((await run([...cmd, ...args], VECTOR.body + "\n")).code).toBe(1);

      const stale = await run([...cmd, ...cliArgs(VECTOR.secret, vectorHeaders(), VECTOR.timestamp + 301)], VECTOR.body);
      expect(stale.code).toBe(1);
      expect(stale.out).toContain("tolerance");

      const standardOnly = await run(
        [...cmd, ...cliArgs(VECTOR.secret, vectorHeaders({ "X-Webhook-Signature": "00" }), VECTOR.timestamp), "--scheme", "standard"],
        VECTOR.body,
      );
      expect(standardOnly.code).toBe(0);
    });

    test(`${name} agrees with sign.ts on secrets used as UTF-8`, async () => {
      const now = 1_800_000_000;
      for (const secret of ["my-mill-webhook-secret-2026", "whsec_!!!!notbase64", "Ünïcødé secret ✓ 1234"]) {
        const body = '{"ingredient":"Maïs","category":"Cereals","price":219,"timestamp":"2027-01-15T08:00:00.000Z"}';
        const headers = signedHeaders({ secret, deliveryId: "dlv_utf8", event: "ingredient.added", body, nowSeconds: now, version: "1.0.0" });
        expect(await run([...cmd, ...cliArgs(secret, headers, now)], body)).toEqual({ code: 0, out: "ok\n" });
      }
    });
  }
});

describe("reference receiver", () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  function start(extra: { clock?: () => number } = {}) {
    const events: ReceivedEvent[] = [];
    const rejects: RejectedRequest[] = [];
    const secret = generateSecret();
    const receiver = startReceiver({
      secrets: [secret],
      port: 0,
      onEvent: (e) => {
        events.push(e);
      },
      onReject: (r) => rejects.push(r),
      ...extra,
    });
    stops.push(() => receiver.stop());
    return { receiver, events, rejects, secret };
  }

  const body = '{"ingredient":"Maize","old_price":212.5,"new_price":219,"timestamp":"2026-11-21T14:03:07.123Z"}';

  test("accepts a correctly signed POST over HTTP and rejects a bad one with 401", async () => {
    const { receiver, events, rejects, secret } = start();
    expect(receiver.port).toBeGreaterThan(0);
    expect(receiver.url).toBe(`http://127.0.0.1:${receiver.port}/`);

    const headers = signedHeaders({ secret, deliveryId: "dlv_abc", event: "price.updated", body, version: "1.0.0" });
    const ok = await fetch(new URL("/hooks/feedbase", receiver.url), { method: "POST", headers, body });
    expect(ok.status).toBe(204);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      deliveryId: "dlv_abc",
      event: "price.updated",
      payload: JSON.parse(body),
      body,
      timestamp: Number(headers["webhook-timestamp"]),
      duplicate: false,
    });
    expect(formatEvent(events[0]!)).toBe(
      "2026-11-21T14:03:07.123Z price.updated dlv_abc  Maize 212.5 → 219 (signatures ok)",
    );

    const bad = await fetch(receiver.url, { method: "POST", headers, body: body.replace("219", "2190") });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ status: "error", message: "Invalid signatures" });
    expect(events).toHaveLength(1);
    expect(rejects).toEqual([{ status: 401, reason: "Invalid signatures", method: "POST", path: "/", deliveryId: "dlv_abc" }]);

    const wrongSecret = signedHeaders({ secret: generateSecret(), deliveryId: "dlv_x", event: "price.updated", body, version: "1.0.0" });
    expect((await fetch(receiver.url, { method: "POST", headers: wrongSecret, body })).status).toBe(401);
    expect((await fetch(receiver.url, { method: "POST", body })).status).toBe(401);
  });

  test("a retry is acknowledged and flagged as a duplicate", async () => {
    const { receiver, events, secret } = start();
    const send = () =>
      fetch(receiver.url, {
        method: "POST",
        headers: signedHeaders({ secret, deliveryId: "dlv_retry", event: "price.updated", body, version: "1.0.0" }),
        body,
      });
    expect((await send()).status).toBe(204);
    expect((await send()).status).toBe(204);
    expect(events.map((e) => e.duplicate)).toEqual([false, true]);
    expect(formatEvent(events[1]!)).toEndWith("(signatures ok, duplicate)");
  });

  test("two copies of one delivery at once: one is handled, the other waits for it and is the duplicate", async () => {
    const events: ReceivedEvent[] = [];
    const secret = generateSecret();
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const receiver = startReceiver({
      secrets: [secret],
      port: 0,
      onEvent: async (e) => {
        events.push(e);
        if (!e.duplicate) await slow;
      },
    });
    stops.push(() => receiver.stop());
    const send = () =>
      fetch(receiver.url, { method: "POST", headers: signedHeaders({ secret, deliveryId: "dlv_twice", event: "price.updated", body, version: "1.0.0" }), body });
    const both = Promise.all([send(), send()]);
    await eventually(() => events.length === 1);
    release();
    expect((await both).map((r) => r.status)).toEqual([204, 204]);
    expect(events.map((e) => e.duplicate)).toEqual([false, true]);
  });

  test("stale deliveries are 401; the clock is injectable", async () => {
    const { receiver, events, secret } = start({ clock: () => VECTOR.timestamp * 1000 });
    const at = (ts: number) =>
      fetch(receiver.url, {
        method: "POST",
        headers: signedHeaders({ secret, deliveryId: "dlv_t", event: "price.updated", body, nowSeconds: ts, version: "1.0.0" }),
        body,
      });
    expect((await at(VECTOR.timestamp - 301)).status).toBe(401);
    expect((await at(VECTOR.timestamp - 299)).status).toBe(204);
    expect(events).toHaveLength(1);
    expect(events[0]!.receivedAt).toBe("2026-11-21T14:03:07.000Z");
  });

  test("other methods are 405 with Allow: POST", async () => {
    const { receiver, rejects } = start();
    const res = await fetch(receiver.url, { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toEqual({ status: "error", message: "Method not allowed" });
    expect(rejects[0]).toMatchObject({ status: 405, method: "GET" });
  });

  test("a failing onEvent answers 500 so the sender retries", async () => {
    const secret = generateSecret();
    let calls = 0;
    const receiver = startReceiver({
      secrets: [secret],
      port: 0,
      onEvent: () => {
        calls++;
        if (calls === 1) throw new Error("disk full");
      },
    });
    stops.push(() => receiver.stop());
    const send = () =>
      fetch(receiver.url, {
        method: "POST",
        headers: signedHeaders({ secret, deliveryId: "dlv_fail", event: "price.updated", body, version: "1.0.0" }),
        body,
      });
    const first = await send();
    expect(first.status).toBe(500);
    expect(await first.json()).toEqual({ status: "error", message: "Event handler failed: disk full" });
    expect((await send()).status).toBe(204);
  });
});

describe("formatEvent", () => {
  const event = (e: Partial<ReceivedEvent>): ReceivedEvent => ({
    deliveryId: "dlv_def",
    event: "ingredient.added",
    payload: {},
    body: "{}",
    timestamp: 1795269787,
    receivedAt: "2026-11-21T14:03:08.000Z",
    duplicate: false,
    ...e,
  });

  test("ingredient.added", () => {
    const payload = { ingredient: "Maize", category: "Cereals", price: 219, timestamp: "2026-11-21T14:05:00.000Z" };
    expect(formatEvent(event({ payload, body: JSON.stringify(payload) }))).toBe(
      "2026-11-21T14:05:00.000Z ingredient.added dlv_def  Maize (Cereals) 219 (signatures ok)",
    );
  });

  test("unknown events and odd payloads still print", () => {
    expect(formatEvent(event({ event: "thing.happened", payload: [1], body: "[1]" }))).toBe(
      "2026-11-21T14:03:08.000Z thing.happened dlv_def  [1] (signatures ok)",
    );
    expect(formatEvent(event({ event: "price.updated", payload: null, body: "null" }))).toBe(
      "2026-11-21T14:03:08.000Z price.updated dlv_def  ? ? → ? (signatures ok)",
    );
  });
});

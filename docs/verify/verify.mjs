// Verify a feedbase webhook delivery in Node.js with nothing but node:crypto.
//
// Use as a library:
//   import { verifyWebhook } from "./verify.mjs";
//   const result = verifyWebhook({ secret, headers: req.headers, rawBody });   // rawBody: Buffer
//   if (!result.ok) { res.writeHead(401); res.end(); return; }
//
// Or from a shell (the body is read raw from stdin):
//   node verify.mjs --secret "$SECRET" -H "X-Webhook-Signature: …" -H "webhook-id: …" \
//     -H "webhook-timestamp: …" -H "webhook-signature: v1,…" [--now SECONDS] [--tolerance 300] \
//     [--scheme both|standard|hex] < body.json
//   node verify.mjs --vector          # checks the test vector of docs/webhook-verification.md
// Exit status: 0 verified, 1 rejected, 2 usage error.
//
// Rules that matter:
// - Verify the RAW body bytes as received. Parsing the JSON and serializing it again changes the
//   bytes (spacing, number formatting, key order) and the signature no longer matches.
// - Compare signatures in constant time (crypto.timingSafeEqual), never with ===.
// - Standard Webhooks: reject a webhook-timestamp more than 5 minutes from now (replays).
// - De-duplicate by webhook-id (equal to X-Webhook-Id): it is the same on every retry of a delivery.
//   Delivery is at-least-once, so remember the ids you processed and acknowledge (2xx) a repeat
//   without acting on it again.
import { createHmac, timingSafeEqual } from "node:crypto";

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$/;

/** The Standard Webhooks key: the bytes after "whsec_" when they are base64, else the whole secret as UTF-8. */
export function standardKey(secret) {
  if (secret.startsWith("whsec_") && STRICT_BASE64.test(secret.slice(6))) {
    return Buffer.from(secret.slice(6), "base64");
  }
  return Buffer.from(secret, "utf8");
}

function safeEqual(a, b) {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

function getHeader(headers, name) {
  if (typeof headers.get === "function") return headers.get(name) ?? undefined; // Fetch Headers
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(", ") : value;
  }
  return undefined;
}

/**
 * Verifies one delivery. `rawBody` is a Buffer/Uint8Array (or a string holding exactly the received text).
 * scheme: "both" (default; what feedbase sends), "standard" (webhook-* headers only) or "hex"
 * (X-Webhook-Signature only: no timestamp, so no replay protection).
 * Returns { ok: true } or { ok: false, reason }.
 */
export function verifyWebhook({ secret, headers, rawBody, nowSeconds, toleranceSeconds = 300, scheme = "both" }) {
  const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody);
  const now = nowSeconds ?? Math.floor(Date.now() / 1000);
  if (!["both", "standard", "hex"].includes(scheme)) return { ok: false, reason: `unknown scheme ${scheme}` };

  if (scheme === "both" || scheme === "hex") {
    const supplied = getHeader(headers, "x-webhook-signature");
    if (!supplied) return { ok: false, reason: "missing X-Webhook-Signature" };
    const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex");
    if (!safeEqual(expected, supplied.trim().toLowerCase())) return { ok: false, reason: "bad X-Webhook-Signature" };
  }

  if (scheme === "both" || scheme === "standard") {
    const id = getHeader(headers, "webhook-id");
    const timestamp = getHeader(headers, "webhook-timestamp");
    const signatures = getHeader(headers, "webhook-signature");
    if (!id || !timestamp || !signatures) return { ok: false, reason: "missing webhook-id/-timestamp/-signature" };
    const legacyId = getHeader(headers, "x-webhook-id");
    if (legacyId !== undefined && legacyId !== id) return { ok: false, reason: "X-Webhook-Id differs from webhook-id" };
    if (!/^\d{1,15}$/.test(timestamp)) return { ok: false, reason: "bad webhook-timestamp" };
    if (Math.abs(now - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: "webhook-timestamp outside tolerance" };
    const expected = "v1," + createHmac("sha256", standardKey(secret))
      .update(Buffer.from(`${id}.${timestamp}.`, "utf8"))
      .update(body)
      .digest("base64");
    // Several space-separated signatures may be sent (e.g. during a secret rotation); one match is enough.
    let match = false;
    for (const candidate of signatures.split(" ")) {
      if (candidate.startsWith("v1,") && safeEqual(expected, candidate)) match = true;
    }
    if (!match) return { ok: false, reason: "bad webhook-signature" };
  }

  return { ok: true };
}

/** The test vector of docs/webhook-verification.md. */
export const VECTOR = {
  secret: "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX",
  rawBody: '{"ingredient":"Soybean meal 48%","old_price":455,"new_price":462.5,"timestamp":"2026-11-21T14:03:07.123Z"}',
  nowSeconds: 1795269787,
  headers: {
    "content-type": "application/json",
    "x-webhook-event": "price.updated",
    "x-webhook-signature": "8acce239873c3e85647f4741ef183cc70e87e6bb4d398c3c5ad87b13c49b45b7",
    "x-webhook-id": "dlv_2f9QxR7mKp4LwT8z",
    "webhook-id": "dlv_2f9QxR7mKp4LwT8z",
    "webhook-timestamp": "1795269787",
    "webhook-signature": "v1,SCAND/Y4SVld7L8IFMCPfu0YDgf/OSGYbOqJ40ULyy4=",
  },
};

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function main(argv) {
  const usage = () => {
    process.stderr.write("usage: node verify.mjs --secret S -H 'Name: value'... [--now N] [--tolerance N] [--scheme both|standard|hex] < body\n       node verify.mjs --vector\n");
    return 2;
  };
  if (argv.includes("--vector")) {
    const result = verifyWebhook(VECTOR);
    process.stdout.write(result.ok ? "ok\n" : `rejected: ${result.reason}\n`);
    return result.ok ? 0 : 1;
  }
  const headers = {};
  let secret, nowSeconds, toleranceSeconds = 300, scheme = "both";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (value === undefined) return usage();
    i++;
    if (arg === "--secret") secret = value;
    else if (arg === "-H" || arg === "--header") {
      const colon = value.indexOf(":");
      if (colon < 1) return usage();
      headers[value.slice(0, colon).trim().toLowerCase()] = value.slice(colon + 1).trim();
    } else if (arg === "--now") nowSeconds = Number(value);
    else if (arg === "--tolerance") toleranceSeconds = Number(value);
    else if (arg === "--scheme") scheme = value;
    else return usage();
  }
  if (secret === undefined || (nowSeconds !== undefined && !Number.isInteger(nowSeconds)) || !Number.isFinite(toleranceSeconds)) return usage();
  const rawBody = await readStdin();
  const result = verifyWebhook({ secret, headers, rawBody, nowSeconds, toleranceSeconds, scheme });
  process.stdout.write(result.ok ? "ok\n" : `rejected: ${result.reason}\n`);
  return result.ok ? 0 : 1;
}

// Run main() only when executed directly, not when imported.
if (process.argv[1] && decodeURIComponent(new URL(import.meta.url).pathname) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}

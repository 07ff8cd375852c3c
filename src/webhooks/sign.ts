/**
 * Webhook signatures: the one place they are made and checked (docs/decisions.md#webhooks).
 *
 * Two schemes ride on every delivery:
 * - the spec's `X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the body alone, keyed with the
 *   secret string's UTF-8 bytes (the same on every attempt made with the same secret);
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): `v1,` + base64
 *   HMAC-SHA256 of `id.timestamp.body`, keyed with the decoded `whsec_` secret, so off-the-shelf
 *   verifier libraries work and replays are bounded by the timestamp.
 */
import { timingSafeEqual } from "node:crypto";

const encoder = new TextEncoder();

const SECRET_PREFIX = "whsec_";
const MIN_SUPPLIED_SECRET_CHARS = 16;
const DEFAULT_TOLERANCE_SECONDS = 300;

// Strict standard base64 with padding, non-empty. Lenient decoders (Buffer, atob) accept junk and
// silently drop it; a secret that only *looks* like whsec_+base64 must fall back to UTF-8 the same way
// in feedbase, in the docs' Node and Python verifiers, so all three use this exact pattern.
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$/;

/**
 * A fresh webhook secret: `whsec_` + base64 of 24 random bytes (docs/decisions.md#webhooks).
 *
 * @example
 * const secret = generateSecret(); // "whsec_q4V0…" (38 characters)
 */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return SECRET_PREFIX + Buffer.from(bytes).toString("base64");
}

/**
 * The HMAC key for the Standard Webhooks scheme: the base64-decoded part after `whsec_` when the
 * secret has that form, otherwise the UTF-8 bytes of the whole secret (docs/decisions.md#webhooks).
 *
 * @example
 * secretKeyBytes("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"); // Uint8Array [0, 1, …, 23]
 * secretKeyBytes("correct horse battery staple");          // its UTF-8 bytes
 */
export function secretKeyBytes(secret: string): Uint8Array {
  if (secret.startsWith(SECRET_PREFIX)) {
    const rest = secret.slice(SECRET_PREFIX.length);
    if (STRICT_BASE64.test(rest)) return new Uint8Array(Buffer.from(rest, "base64"));
  }
  return encoder.encode(secret);
}

/**
 * Rejects a secret supplied by an admin (`webhook add` or `rotate-secret` with `--secret-file` or
 * `FEEDBASE_WEBHOOK_SECRET`) that is too short to be worth signing with. Throws an Error whose message the CLI prints before exit 2.
 *
 * @example
 * validateSuppliedSecret("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"); // ok
 * validateSuppliedSecret("hunter2"); // throws "Webhook secret must be at least 16 characters (got 7)"
 */
export function validateSuppliedSecret(secret: string): void {
  // Count code points, not UTF-16 units: an admin counts what they typed.
  const length = [...secret].length;
  if (length < MIN_SUPPLIED_SECRET_CHARS) {
    throw new Error(
      `Webhook secret must be at least ${MIN_SUPPLIED_SECRET_CHARS} characters (got ${length})`,
    );
  }
}

function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : data;
}

function hmac(key: string | Uint8Array, ...parts: Uint8Array[]): Bun.CryptoHasher {
  const hasher = new Bun.CryptoHasher("sha256", key);
  for (const part of parts) hasher.update(part);
  return hasher;
}

function requireTimestamp(timestampSeconds: number): void {
  // A fractional or huge timestamp would be signed as e.g. "1.7e9" and no verifier would agree.
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`webhook timestamp must be a non-negative integer of seconds, got ${timestampSeconds}`);
  }
}

/**
 * The spec's `X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the body bytes, keyed with the
 * secret string's UTF-8 bytes (for a `whsec_` secret too: the whole string is the key).
 *
 * @example
 * hexSignature("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX", '{"ingredient":"Maize",…}'); // "3f1c…" (64 hex)
 */
export function hexSignature(secret: string, body: string | Uint8Array): string {
  return hmac(encoder.encode(secret), bytesOf(body)).digest("hex");
}

/**
 * The Standard Webhooks `webhook-signature` value: `v1,` + base64 HMAC-SHA256 of
 * `${id}.${timestampSeconds}.${body}`, keyed with {@link secretKeyBytes}.
 *
 * @example
 * standardSignature(secret, "dlv_2f9QxR7mKp4LwT8z", 1795269787, body); // "v1,K5oZ…="
 */
export function standardSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string | Uint8Array,
): string {
  requireTimestamp(timestampSeconds);
  const prefix = encoder.encode(`${id}.${timestampSeconds}.`);
  return "v1," + hmac(secretKeyBytes(secret), prefix, bytesOf(body)).digest("base64");
}

/** Input of {@link signedHeaders}. */
export interface SignedHeadersInput {
  secret: string;
  /** Stable across retries; receivers de-duplicate on it. */
  deliveryId: string;
  /** `price.updated` or `ingredient.added`. */
  event: string;
  /** The event's id (GET /v1/events), sent as `X-Webhook-Event-Id`; a ping has none. */
  eventId?: number;
  /** The exact bytes that will be sent. */
  body: string | Uint8Array;
  /** The attempt's time in whole Unix seconds; defaults to now. */
  nowSeconds?: number;
  /** feedbase version for the User-Agent. */
  version: string;
}

/**
 * Every header of one delivery attempt (docs/decisions.md#webhooks). Call it per attempt: `webhook-timestamp` and
 * with it `webhook-signature` change between attempts, everything else does not.
 *
 * @example
 * const headers = signedHeaders({ secret, deliveryId: "dlv_2f9QxR7mKp4LwT8z", event: "price.updated",
 *   body, nowSeconds: Math.floor(Date.now() / 1000), version: "1.0.0" });
 * await fetch(url, { method: "POST", headers, body, redirect: "manual" });
 */
export function signedHeaders(input: SignedHeadersInput): Record<string, string> {
  const nowSeconds = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  return {
    "Content-Type": "application/json",
    "X-Webhook-Event": input.event,
    "X-Webhook-Signature": hexSignature(input.secret, input.body),
    "X-Webhook-Id": input.deliveryId,
    ...(input.eventId !== undefined ? { "X-Webhook-Event-Id": String(input.eventId) } : {}),
    "webhook-id": input.deliveryId,
    "webhook-timestamp": String(nowSeconds),
    "webhook-signature": standardSignature(input.secret, input.deliveryId, nowSeconds, input.body),
    "User-Agent": `feedbase/${input.version}`,
  };
}

/** Headers as a receiver may hold them: a Fetch `Headers` or a plain (any-case) record. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/** Input of {@link verifyDelivery}. */
export interface VerifyInput {
  secret: string;
  headers: HeaderSource;
  /** The raw body bytes as received; never a re-serialized parse. */
  body: string | Uint8Array;
  /** Defaults to now. */
  nowSeconds?: number;
  /** Largest accepted |now − webhook-timestamp|; default 300 (the Standard Webhooks default). */
  toleranceSeconds?: number;
}

/** Outcome of {@link verifyDelivery}; `reason` is safe to show to the sender. */
export type VerifyResult = { ok: true } | { ok: false; reason: string };

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value.join(", ") : value;
  }
  return undefined;
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  // Lengths are public (fixed by the algorithm); only the contents must not leak through timing.
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks a delivery the way a careful receiver should: the `X-Webhook-Signature` over the raw body,
 * the Standard Webhooks signature (any of the space-separated `v1,` entries may match, which is how
 * senders roll secrets), the timestamp tolerance in both directions, and that `X-Webhook-Id`, when
 * present, equals the signed `webhook-id` (receivers de-duplicate on it). Both schemes are required:
 * accepting either alone would let an attacker strip the timestamped one and replay old bodies.
 *
 * @example
 * const body = new Uint8Array(await req.arrayBuffer());
 * const result = verifyDelivery({ secret, headers: req.headers, body });
 * if (!result.ok) return Response.json({ status: "error", message: result.reason }, { status: 401 });
 */
export function verifyDelivery(input: VerifyInput): VerifyResult {
  const { secret, headers } = input;
  const toleranceSeconds = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const body = bytesOf(input.body);

  const hex = header(headers, "x-webhook-signature");
  const id = header(headers, "webhook-id");
  const timestampText = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  const required = {
    "X-Webhook-Signature": hex,
    "webhook-id": id,
    "webhook-timestamp": timestampText,
    "webhook-signature": signatures,
  };
  if (hex === undefined || id === undefined || timestampText === undefined || signatures === undefined) {
    const missing = Object.entries(required).filter(([, value]) => value === undefined);
    return { ok: false, reason: `Missing header: ${missing.map(([name]) => name).join(", ")}` };
  }

  const legacyId = header(headers, "x-webhook-id");
  if (legacyId !== undefined && legacyId !== id) {
    return { ok: false, reason: "X-Webhook-Id does not match webhook-id" };
  }

  const timestamp = /^\d{1,15}$/.test(timestampText) ? Number(timestampText) : NaN;
  if (!Number.isSafeInteger(timestamp)) {
    return { ok: false, reason: "Invalid webhook-timestamp" };
  }
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    return {
      ok: false,
      reason: `webhook-timestamp is outside the ${toleranceSeconds} s tolerance (stale or from the future)`,
    };
  }

  // Both computed and compared before deciding, so timing does not reveal which one failed first.
  const hexOk = constantTimeEqual(hexSignature(secret, body), hex.trim().toLowerCase());
  const expected = standardSignature(secret, id, timestamp, body);
  let standardOk = false;
  for (const candidate of signatures.split(" ")) {
    if (!candidate.startsWith("v1,")) continue; // other versions are for other verifiers
    if (constantTimeEqual(expected, candidate)) standardOk = true;
  }

  if (!hexOk && !standardOk) return { ok: false, reason: "Invalid signatures" };
  if (!hexOk) return { ok: false, reason: "Invalid X-Webhook-Signature" };
  if (!standardOk) return { ok: false, reason: "Invalid webhook-signature" };
  return { ok: true };
}

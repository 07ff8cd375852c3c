/**
 * Checking a delivery's signatures, as the reference receiver and any careful receiver does
 * (docs/decisions.md#webhooks): both schemes of sign.ts, the timestamp tolerance, the ids.
 */
import { timingSafeEqual } from "node:crypto";
import { bytesOf, hexSignature, standardSignature } from "./sign.ts";

const encoder = new TextEncoder();
const DEFAULT_TOLERANCE_SECONDS = 300;

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

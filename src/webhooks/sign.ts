/**
 * Webhook signatures: the one place they are made (docs/decisions.md#webhooks); verify.ts checks them
 * and secret.ts makes and reads the secrets.
 *
 * Two schemes ride on every delivery:
 * - the spec's `X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the body alone, keyed with the
 *   secret string's UTF-8 bytes (the same on every attempt made with the same secret);
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): `v1,` + base64
 *   HMAC-SHA256 of `id.timestamp.body`, keyed with the decoded `whsec_` secret, so off-the-shelf
 *   verifier libraries work and replays are bounded by the timestamp.
 */
import { secretKeyBytes } from "./secret.ts";

const encoder = new TextEncoder();

/** A body as bytes, whichever form it came in. */
export function bytesOf(data: string | Uint8Array): Uint8Array {
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

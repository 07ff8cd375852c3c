/**
 * Webhook secrets (docs/decisions.md#webhooks): a generated one is `whsec_` + base64 of 24 random
 * bytes; one an admin supplies needs 16 characters; the Standard Webhooks key is the decoded part
 * after `whsec_` when the secret has that form, else the secret's UTF-8 bytes.
 */
const encoder = new TextEncoder();

const SECRET_PREFIX = "whsec_";
const MIN_SUPPLIED_SECRET_CHARS = 16;

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

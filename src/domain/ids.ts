/** Random identifiers and key material. Ids are opaque and safe to print; API keys are secrets. */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Uniformly random base62 text from the CSPRNG (bytes >= 248 are rejected so no character is favoured).
 * @example randomBase62(12) // "a8Kq0ZtP3mXc"
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length + 8))) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const API_KEY_PREFIX = "fbk_";

/** @example newApiKey() // "fbk_" + 40 base62 characters */
export const newApiKey = (): string => API_KEY_PREFIX + randomBase62(40);
/** @example newKeyId() // "key_3hT9aQ0xLw2M" */
export const newKeyId = (): string => "key_" + randomBase62(12);
/** @example newWebhookId() // "wh_Zp8c1LmQ04sA" */
export const newWebhookId = (): string => "wh_" + randomBase62(12);
/** @example newDeliveryId() // "dlv_0aQ7vM2xPp9kLr3B" */
export const newDeliveryId = (): string => "dlv_" + randomBase62(16);
/** @example newFormulaId() // "frm_8sK2mQ0aZx7TLc1P" */
export const newFormulaId = (): string => "frm_" + randomBase62(16);
/** @example newAnalysisId() // "ana_4Kp0cX9qLm2ZsT7e" */
export const newAnalysisId = (): string => "ana_" + randomBase62(16);

/**
 * Hex SHA-256 of an API key: the only form in which a key is stored.
 * @example hashApiKey("fbk_...") // "9f86d0…"
 */
export function hashApiKey(key: string): string {
  return new Bun.CryptoHasher("sha256").update(key).digest("hex");
}

/**
 * Which receiver URLs `webhook add` refuses (docs/decisions.md#webhook-urls): not http(s); with a user
 * name or password in them (they would be stored and shown by `webhook list`, and the signature is
 * what authenticates feedbase to the receiver); to a link-local address (169.254.0.0/16, fe80::/10:
 * where clouds answer with instance metadata and credentials). Loopback and private addresses stay
 * allowed: receivers on the same machine or network are the common case.
 */

/** Whether an IPv4 address in dotted form is in 169.254.0.0/16. */
const linkLocalV4 = (host: string) => /^169\.254\.\d{1,3}\.\d{1,3}$/.test(host);

/** Whether an IPv6 address (without brackets, as the URL parser writes it) is in fe80::/10, or maps an IPv4 one in 169.254.0.0/16. */
function linkLocalV6(host: string): boolean {
  if (/^fe[89ab][0-9a-f]:/i.test(host)) return true;
  // ::ffff:169.254.x.y, which the URL parser writes as ::ffff:a9fe:xxxx.
  return /^::ffff:a9fe:[0-9a-f]{1,4}$/i.test(host);
}

/**
 * The receiver URL normalized (the URL parser's form), or why it is refused.
 * @example checkWebhookUrl("http://169.254.169.254/latest") // { problem: "Webhook URL must not point to a link-local address …" }
 */
export function checkWebhookUrl(text: string): { url: string } | { problem: string } {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return { problem: `Webhook URL must be an absolute http:// or https:// URL, got ${text}` };
  if (url.username !== "" || url.password !== "") {
    return { problem: "Webhook URL must not hold a user name or password (user:pass@): they would be stored and listed in clear; receivers check the signature instead" };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (linkLocalV4(host) || linkLocalV6(host)) {
    return { problem: `Webhook URL must not point to a link-local address (169.254.0.0/16, fe80::/10), got ${url.hostname}: cloud metadata services answer there` };
  }
  return { url: url.href };
}

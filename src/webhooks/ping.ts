/**
 * `webhook ping`: a signed `ping` event sent at once to one receiver, outside the outbox, so an
 * integrator can test their endpoint without anyone changing a price. It is signed and sent exactly
 * like a delivery (both schemes, `X-Webhook-Event: ping`), with an id of its own (`ping_…`).
 */
import { randomBase62 } from "../domain/ids.ts";
import { isoTime } from "../domain/time.ts";
import type { WebhookTarget } from "../store/webhooks.ts";
import { VERSION } from "../version.ts";
import { postSigned, type PostAnswer } from "./post.ts";
import { signedHeaders } from "./sign.ts";

/** The event name a ping carries in `X-Webhook-Event`; no webhook subscribes to it, every webhook can be pinged. */
export const PING_EVENT = "ping";

/** How much of the receiver's answer is shown. */
const BODY_START_BYTES = 200;

/** What a ping got back. */
export interface PingResult extends PostAnswer {
  /** The `webhook-id` it was sent with. */
  id: string;
  /** The exact body sent. */
  body: string;
  ms: number;
}

/**
 * Send one signed ping to `target` and wait for the answer (at most `timeoutMs`).
 * @example const result = await pingWebhook(requireWebhookTarget(db, "wh_Zp8c1LmQ04sA"), { nowMs: Date.now(), timeoutMs: 10_000 })
 */
export async function pingWebhook(target: WebhookTarget, options: { nowMs: number; timeoutMs: number }): Promise<PingResult> {
  const id = "ping_" + randomBase62(16);
  const body = JSON.stringify({ webhook: target.id, timestamp: isoTime(options.nowMs) });
  const headers = signedHeaders({ secret: target.secret, deliveryId: id, event: PING_EVENT, body, nowSeconds: Math.floor(options.nowMs / 1000), version: VERSION });
  const started = performance.now();
  const answer = await postSigned(target.url, headers, body, { timeoutMs: options.timeoutMs, bodyBytes: BODY_START_BYTES });
  return { ...answer, id, body, ms: Math.round(performance.now() - started) };
}

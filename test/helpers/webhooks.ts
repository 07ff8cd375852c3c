/**
 * Test receivers for webhook deliveries: a real HTTP server on loopback that records every request
 * (headers, raw bytes, time) and answers as the test tells it, plus both signature schemes written
 * from their descriptions with node:crypto alone, so a test does not check feedbase with feedbase.
 */
import { createHmac } from "node:crypto";

/** One request as the receiver got it. */
export interface Recorded {
  headers: Record<string, string>;
  bytes: Uint8Array;
  text: string;
  /** The body parsed as JSON. */
  json: Record<string, unknown>;
  /** `performance.now()` when it arrived. */
  at: number;
}

/** How the receiver answers request number `index` (0-based, counting every request it got). */
export type Answer = (request: Recorded, index: number) => Response | Promise<Response>;

export interface Recorder {
  url: string;
  requests: Recorded[];
  /** Requests not answered yet. */
  open(): number;
  /** Change how later requests are answered. */
  answer(answer: Answer): void;
  stop(): Promise<void>;
}

/**
 * A loopback receiver that records every request; answers 204 unless told otherwise. `port` brings a
 * receiver back up at the address a webhook was registered with (0, the default, picks a free one).
 * @example const r = startRecorder((req, i) => new Response(null, { status: i === 0 ? 500 : 204 }))
 */
export function startRecorder(answer: Answer = () => new Response(null, { status: 204 }), options: { port?: number } = {}): Recorder {
  const requests: Recorded[] = [];
  let current = answer;
  let open = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    // Hanging receivers stay hung until the test lets them go.
    idleTimeout: 0,
    async fetch(req) {
      const bytes = new Uint8Array(await req.arrayBuffer());
      const text = new TextDecoder().decode(bytes);
      const recorded: Recorded = { headers: Object.fromEntries(req.headers), bytes, text, json: JSON.parse(text), at: performance.now() };
      const index = requests.push(recorded) - 1;
      open++;
      try {
        return await current(recorded, index);
      } finally {
        open--;
      }
    },
  });
  return {
    url: server.url.href,
    requests,
    open: () => open,
    answer: (next) => (current = next),
    stop: () => server.stop(true),
  };
}

/** The spec's `X-Webhook-Signature`: hex HMAC-SHA256 of the body, keyed with the secret's UTF-8 bytes. */
export function independentHex(secret: string, body: Uint8Array): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex");
}

/**
 * Standard Webhooks (standardwebhooks.com, "Signature scheme"): base64 HMAC-SHA256 of
 * `msg_id.timestamp.body`, keyed with the base64 part of a `whsec_` secret (else its UTF-8 bytes, docs/decisions.md#webhooks).
 */
export function independentStandard(secret: string, id: string, timestamp: string, body: Uint8Array): string {
  const rest = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : "";
  const isBase64 = rest.length > 0 && Buffer.from(rest, "base64").toString("base64") === rest;
  const key = isBase64 ? Buffer.from(rest, "base64") : Buffer.from(secret, "utf8");
  return "v1," + createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64");
}

/** A promise and the function that settles it: lets a test hold a receiver's answer. */
export function gate(): { wait: Promise<void>; open(): void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

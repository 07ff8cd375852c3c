/**
 * The reference webhook receiver: what an integrator's endpoint should do, runnable for admins
 * (`feedbase receive`) and for tests. It verifies with the same code feedbase signs with, so a
 * delivery it accepts is one any careful receiver would accept.
 */
import { verifyDelivery, type VerifyResult } from "./verify.ts";

/** One verified delivery as handed to `onEvent`. */
export interface ReceivedEvent {
  /** `webhook-id` (= `X-Webhook-Id`): stable across retries. */
  deliveryId: string;
  /** `X-Webhook-Event`, e.g. `price.updated`. */
  event: string;
  /** The body parsed as JSON. */
  payload: unknown;
  /** The raw body as UTF-8 text, exactly the signed bytes. */
  body: string;
  /** `webhook-timestamp`: the attempt's time, Unix seconds (signed). */
  timestamp: number;
  /** When this receiver got it (ISO 8601, from `clock`). */
  receivedAt: string;
  /** True when this receiver already accepted this delivery id: a retry whose answer got lost. */
  duplicate: boolean;
}

/** A request the receiver refused, as handed to `onReject`. */
export interface RejectedRequest {
  status: number;
  reason: string;
  method: string;
  path: string;
  /** The claimed delivery id, if any (unverified when the signature failed). */
  deliveryId?: string;
}

/** Everything that arrived in one POST, accepted or not, as handed to `onArrival`. */
export interface Arrival {
  /** When it arrived (ISO 8601, from `clock`). */
  receivedAt: string;
  method: string;
  path: string;
  /** The headers as received, in order, names lower-cased. */
  headers: [string, string][];
  /** The raw body bytes. */
  body: Uint8Array;
  /** What the receiver answered, and why when not 204. */
  status: number;
  reason: string | null;
}

/** Options of {@link startReceiver}. */
export interface ReceiverOptions {
  /** A delivery verifies when it is signed with any of these: during a rotation, the old and the new. */
  secrets: readonly string[];
  /** 0 picks a free port. */
  port: number;
  hostname?: string;
  onEvent?: (event: ReceivedEvent) => void | Promise<void>;
  onReject?: (rejected: RejectedRequest) => void;
  /** Every POST, after `onEvent` or `onReject`: to show or keep exactly what arrived. */
  onArrival?: (arrival: Arrival) => void | Promise<void>;
  /** Milliseconds since the epoch; injectable so tests can verify old vectors. */
  clock?: () => number;
  /** Default 300 s, as in {@link verifyDelivery}. */
  toleranceSeconds?: number;
}

/** A running receiver. */
export interface RunningReceiver {
  port: number;
  /** Base URL to register with `feedbase webhook add`; any path under it is accepted. */
  url: string;
  stop(): Promise<void>;
}

// Far above any feedbase payload; stops a stray client from filling memory.
const MAX_BODY_BYTES = 1024 * 1024;
// Enough to catch every retry of a day of deliveries on a test or demo setup without growing forever.
const MAX_REMEMBERED_IDS = 10_000;

function errorResponse(status: number, message: string, headers?: Record<string, string>): Response {
  return Response.json({ status: "error", message }, { status, headers });
}

/**
 * Starts the reference receiver on `Bun.serve`: POST on any path is verified with
 * {@link verifyDelivery}; a bad or stale signature is 401 `{status:"error",message}`, a verified
 * delivery 204 (also for a duplicate: the sender must stop retrying), any other method 405.
 * A throwing `onEvent` answers 500, so feedbase retries the delivery.
 *
 * @example
 * const receiver = startReceiver({ secrets: [secret], port: 0, onEvent: (e) => console.log(formatEvent(e)) });
 * console.log(`register ${receiver.url}`);
 * // … later
 * await receiver.stop();
 */
export function startReceiver(options: ReceiverOptions): RunningReceiver {
  const clock = options.clock ?? Date.now;
  const seen = new Set<string>();
  /** Deliveries whose handler is running: a second copy waits for the first, then is a duplicate of it. */
  const handling = new Map<string, Promise<unknown>>();

  /** The answer to one request: 204, or an error status with its reason. */
  interface Verdict {
    status: number;
    reason: string | null;
  }

  const reject = (req: Request, status: number, reason: string, deliveryId?: string): Verdict => {
    const path = new URL(req.url).pathname;
    options.onReject?.({ status, reason, method: req.method, path, ...(deliveryId ? { deliveryId } : {}) });
    return { status, reason };
  };

  const server = Bun.serve({
    port: options.port,
    hostname: options.hostname ?? "127.0.0.1",
    maxRequestBodySize: MAX_BODY_BYTES,
    async fetch(req) {
      if (req.method !== "POST") return errorResponse(405, reject(req, 405, "Method not allowed").reason!, { Allow: "POST" });

      // Verify the raw bytes: a parse and re-serialize would change them and break the signature.
      const raw = new Uint8Array(await req.arrayBuffer());
      const nowMs = clock();
      const verdict = await judge(req, raw, nowMs);
      const path = new URL(req.url).pathname;
      await options.onArrival?.({ receivedAt: new Date(nowMs).toISOString(), method: req.method, path, headers: [...req.headers], body: raw, ...verdict });
      return verdict.reason === null ? new Response(null, { status: verdict.status }) : errorResponse(verdict.status, verdict.reason);
    },
  });

  /** Verify with each secret in turn, parse and hand over one POST. */
  async function judge(req: Request, raw: Uint8Array, nowMs: number): Promise<Verdict> {
    const claimedId = req.headers.get("webhook-id") ?? req.headers.get("x-webhook-id") ?? undefined;
    let result: VerifyResult = { ok: false, reason: "no secret to verify with" };
    for (const secret of options.secrets) {
      result = verifyDelivery({
        secret,
        headers: req.headers,
        body: raw,
        nowSeconds: Math.floor(nowMs / 1000),
        ...(options.toleranceSeconds !== undefined ? { toleranceSeconds: options.toleranceSeconds } : {}),
      });
      if (result.ok) break;
    }
    if (!result.ok) return reject(req, 401, result.reason, claimedId);

    const body = new TextDecoder().decode(raw);
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      return reject(req, 400, "Request body must be valid JSON", claimedId);
    }

    // verifyDelivery guarantees these headers exist.
    const deliveryId = req.headers.get("webhook-id") ?? "";
    // Two copies of one delivery at once (a retry racing a slow first attempt): one is handled, the other
    // waits and is then the duplicate. No await between the check and the claim below.
    for (let earlier = handling.get(deliveryId); earlier; earlier = handling.get(deliveryId)) await earlier.catch(() => {});
    const duplicate = seen.has(deliveryId);
    const received: ReceivedEvent = {
      deliveryId,
      event: req.headers.get("x-webhook-event") ?? "",
      payload,
      body,
      timestamp: Number(req.headers.get("webhook-timestamp")),
      receivedAt: new Date(nowMs).toISOString(),
      duplicate,
    };
    const handled = (async () => options.onEvent?.(received))();
    if (!duplicate) handling.set(deliveryId, handled);
    try {
      await handled;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return reject(req, 500, `Event handler failed: ${message}`, deliveryId);
    } finally {
      if (handling.get(deliveryId) === handled) handling.delete(deliveryId);
    }
    // Remembered only once handled, so a delivery whose handler failed is not called a duplicate.
    if (!duplicate) {
      seen.add(deliveryId);
      if (seen.size > MAX_REMEMBERED_IDS) {
        const oldest = seen.values().next().value;
        if (oldest !== undefined) seen.delete(oldest);
      }
    }
    return { status: 204, reason: null };
  }

  const port = server.port ?? options.port;
  return {
    port,
    url: server.url.href,
    stop: () => server.stop(true),
  };
}

function field(payload: unknown, key: string): unknown {
  return typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string {
  if (typeof value === "string" || typeof value === "number") return String(value);
  return value === undefined ? "?" : JSON.stringify(value);
}

/**
 * One readable line per delivery for a terminal: the event's own time (payload `timestamp`, else
 * the receive time), event, delivery id, and the change.
 *
 * @example
 * formatEvent(e);
 * // "2026-11-21T14:03:07.123Z price.updated dlv_abc  Maize 212.5 → 219 (signatures ok)"
 * // "2026-11-21T14:05:00.000Z ingredient.added dlv_def  Maize (Cereals) 219 (signatures ok)"
 * // "2026-11-21T14:03:07.123Z formula.cost_changed dlv_ghi  Maize 212.5 → 219: broiler-starter 612.44 → 620.3 (signatures ok)"
 */
export function formatEvent(e: ReceivedEvent): string {
  const payload = e.payload;
  const when = field(payload, "timestamp");
  const time = typeof when === "string" ? when : e.receivedAt;
  let summary: string;
  if (e.event === "price.updated") {
    summary = `${text(field(payload, "ingredient"))} ${text(field(payload, "old_price"))} → ${text(field(payload, "new_price"))}`;
  } else if (e.event === "formula.cost_changed") {
    const formulas = field(payload, "formulas");
    const moves = Array.isArray(formulas) ? formulas.map((f) => `${text(field(f, "id"))} ${text(field(f, "old_cost"))} → ${text(field(f, "new_cost"))}`) : [];
    summary = `${text(field(payload, "ingredient"))} ${text(field(payload, "old_price"))} → ${text(field(payload, "new_price"))}: ${moves.join(", ")}`;
  } else if (e.event === "ping") {
    summary = `from ${text(field(payload, "webhook"))}`;
  } else if (e.event === "ingredient.added") {
    summary = `${text(field(payload, "ingredient"))} (${text(field(payload, "category"))}) ${text(field(payload, "price"))}`;
  } else {
    summary = e.body;
  }
  const status = e.duplicate ? "signatures ok, duplicate" : "signatures ok";
  return `${time} ${e.event} ${e.deliveryId}  ${summary} (${status})`;
}

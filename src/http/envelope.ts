/** The one place that builds response bodies: the success envelope and the error object of the spec. */

export interface EnvelopeExtras {
  count?: number;
  pools?: readonly string[];
  timestamp?: string;
}

/** What a handler answers; the server turns it into one Response with the request's own headers. */
export interface Reply {
  status: number;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}

/**
 * A JSON reply.
 * @example jsonReply(201, okBody(detail), { Location: "/v1/ingredients/Maize" })
 */
export function jsonReply(status: number, body: string | Uint8Array, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

/**
 * The envelope without its closing brace or timestamp: the part that depends only on the data, so it
 * can be kept between writes (src/http/read-cache.ts) as a PreparedBody.
 * @example openBody([{ name: "Maize" }], { count: 1 }) // '{"status":"ok","data":[{"name":"Maize"}],"count":1'
 */
export function openBody(data: unknown, extras: Omit<EnvelopeExtras, "timestamp"> = {}): string {
  const text = JSON.stringify({ status: "ok", data, ...extras });
  return text.slice(0, -1);
}

/**
 * Finish a body from `openBody`, with the request's timestamp where the spec has one.
 * @example closeBody(openBody(data, { count }), "2026-11-21T14:03:07.123Z")
 */
export function closeBody(open: string, timestamp?: string): string {
  return timestamp === undefined ? open + "}" : `${open},"timestamp":"${timestamp}"}`;
}

const encoder = new TextEncoder();

/**
 * An envelope kept as UTF-8 bytes between writes. Bodies with a timestamp are finished once per
 * distinct timestamp (millisecond), so under load most requests send bytes that already exist.
 * @example const body = new PreparedBody(openBody(list, { count })); jsonReply(200, body.at(ctx.timestamp))
 */
export class PreparedBody {
  private untimedBytes: Uint8Array | null = null;
  private stampedAt = "";
  private stamped: Uint8Array = new Uint8Array(0);

  constructor(private readonly open: string) {}

  /** The body with no timestamp (the price list, as the spec has it). */
  untimed(): Uint8Array {
    return (this.untimedBytes ??= encoder.encode(closeBody(this.open)));
  }

  /** The body finished with this timestamp. */
  at(timestamp: string): Uint8Array {
    if (timestamp !== this.stampedAt) {
      this.stamped = encoder.encode(closeBody(this.open, timestamp));
      this.stampedAt = timestamp;
    }
    return this.stamped;
  }
}

/**
 * `{status: "ok", data, count?, pools?, timestamp?}` in the spec's field order.
 * @example okBody([{ name: "Maize" }], { count: 1, timestamp })
 */
export function okBody(data: unknown, extras: EnvelopeExtras = {}): string {
  const { timestamp, ...rest } = extras;
  return closeBody(openBody(data, rest), timestamp);
}

/** @example errorBody("Not found") // '{"status":"error","message":"Not found"}' */
export function errorBody(message: string): string {
  return JSON.stringify({ status: "error", message });
}

/**
 * `{status: "ok", version, timestamp}`: the health answer has no `data`, as the spec has it.
 * @example healthBody("1.0.0", "2026-11-21T14:03:07.123Z")
 */
export function healthBody(version: string, timestamp: string): string {
  return JSON.stringify({ status: "ok", version, timestamp });
}

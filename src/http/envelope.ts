/** The one place that builds response bodies: the success envelope and the error object of the spec. */

export interface EnvelopeExtras {
  count?: number;
  pools?: readonly string[];
  since?: string | null;
  /** A page's cursor: the `after` of the next page, and whether one is there now. */
  next?: number;
  hasMore?: boolean;
  /** A report's window as used. */
  from?: string;
  to?: string | null;
  timestamp?: string;
}

/**
 * A string value that stands, in data kept between writes, for the time of the request it is served
 * to (a cost "as of now" names its instant): PreparedBody.at puts the request's timestamp there.
 * It holds a control character, which no stored name or text can (they are validated without).
 */
export const REQUEST_TIME = "\u0000request-time";
const REQUEST_TIME_JSON = JSON.stringify(REQUEST_TIME);

/** What a handler answers; the server turns it into one Response with the request's own headers. */
export interface Reply {
  status: number;
  /** null: no body (a 304). */
  body: string | Uint8Array | Blob | null;
  headers?: Record<string, string>;
}

/**
 * A JSON reply.
 * @example jsonReply(201, okBody(detail), { Location: "/v1/ingredients/Maize" })
 */
export function jsonReply(status: number, body: Reply["body"], headers?: Record<string, string>): Reply {
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
 * `openBody(data)` for data that is already JSON text (a solver worker's answer, src/optimize/pool.ts):
 * the same text, without parsing it to serialize it again.
 * @example openBodyJson('{"status":"optimal"}') // '{"status":"ok","data":{"status":"optimal"}'
 */
export function openBodyJson(dataJson: string): string {
  return `{"status":"ok","data":${dataJson}`;
}

/**
 * Finish a body from `openBody`, with the request's timestamp where the spec has one.
 * @example closeBody(openBody(data, { count }), "2026-11-21T14:03:07.123Z")
 */
export function closeBody(open: string, timestamp?: string): string {
  return timestamp === undefined ? open + "}" : `${open},"timestamp":"${timestamp}"}`;
}

/**
 * An envelope kept as a Blob between writes: a Response made from a Blob shares its bytes, where one
 * made from a string or a Uint8Array copies a list of 90 KB on every request. Bodies with a timestamp
 * are finished once per distinct timestamp (millisecond) from the prepared opening.
 * @example const body = new PreparedBody(openBody(list, { count })); jsonReply(200, body.at(ctx.timestamp))
 */
export class PreparedBody {
  private readonly opening: Blob;
  /** When the body holds REQUEST_TIME: the opening cut around it. */
  private readonly around: [Blob, Blob] | null = null;
  private untimedBlob: Blob | null = null;
  private stampedAt = "";
  private stamped: Blob | null = null;
  /**
   * A strong validator of the body without its timestamp (and request time): the same data gives the
   * same tag in every generation, so a write elsewhere does not break a client's 304s. Hashed once, here.
   */
  readonly etag: string;
  /** `{ ETag }`, made once for every reply that carries it; frozen, so its Response headers are kept too (src/http/reply-headers.ts). */
  readonly etagHeader: Readonly<Record<string, string>>;
  /**
   * The most this can hold, for the read cache's bound: the opening, its two halves around the request
   * time when it has one, and one finished copy (stamped or untimed), plus the tag.
   */
  readonly bytes: number;

  constructor(open: string) {
    this.opening = new Blob([open]);
    this.etag = `"${new Bun.CryptoHasher("sha256").update(open).digest("base64url")}"`;
    this.etagHeader = Object.freeze({ ETag: this.etag });
    const slot = open.indexOf(REQUEST_TIME_JSON);
    if (slot !== -1) this.around = [new Blob([open.slice(0, slot)]), new Blob([open.slice(slot + REQUEST_TIME_JSON.length)])];
    this.bytes = this.opening.size * (this.around ? 3 : 2) + 2 * this.etag.length + 64;
  }

  /** The body with no timestamp (the price list, as the spec has it). */
  untimed(): Blob {
    return (this.untimedBlob ??= new Blob([this.opening, "}"]));
  }

  /** The body finished with this timestamp. */
  at(timestamp: string): Blob {
    if (timestamp !== this.stampedAt || this.stamped === null) {
      const opening = this.around ? [this.around[0], `"${timestamp}"`, this.around[1]] : [this.opening];
      this.stamped = new Blob([...opening, `,"timestamp":"${timestamp}"}`]);
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

/**
 * The spec's error object; `details` adds fields after the message (readiness lists its failed checks).
 * @example errorBody("Not found") // '{"status":"error","message":"Not found"}'
 */
export function errorBody(message: string, details?: Record<string, unknown>): string {
  return JSON.stringify({ status: "error", message, ...details });
}

/**
 * `{status: "ok", version, timestamp}`: the health answer has no `data`, as the spec has it.
 * @example healthBody("1.0.0", "2026-11-21T14:03:07.123Z")
 */
export function healthBody(version: string, timestamp: string): string {
  return JSON.stringify({ status: "ok", version, timestamp });
}

/**
 * Whether an `If-None-Match` value names this entity tag: `*`, or a comma-separated list of tags
 * compared weakly (a `W/` prefix is ignored), as RFC 9110 has it for If-None-Match.
 * @example noneMatch('W/"abc", "def"', '"def"') // true
 */
export function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

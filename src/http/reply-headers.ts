/**
 * The headers of an answer in the form Bun takes fastest. Bun turns a plain object of headers into its
 * own Headers on every Response: about 1.8 µs for the eight of a cached read, the largest single cost
 * of one. A Headers it is given is copied for a fraction of that. So the common answers, those with
 * the rate-limit fields and either no header of their own or a frozen object of them (a kept body's
 * `ETag`), are written into a Headers kept for that shape, which each Response copies when made. The
 * names, values and order on the wire are those of the plain object.
 */
import { RATE_LIMIT_FIELDS } from "./rate-limit.ts";

export type LimitHeaders = Record<keyof typeof RATE_LIMIT_FIELDS, string>;

/** In the order `rateLimitHeaders` writes them, which is their order on the wire. */
const LIMIT_NAMES = Object.keys(RATE_LIMIT_FIELDS) as (keyof LimitHeaders)[];

/** One shape's Headers and the values last written into it: a value that did not change is not set again. */
class Shape {
  readonly headers = new Headers();
  private requestId = "";
  private readonly limit: string[] = LIMIT_NAMES.map(() => "");

  constructor(own: Readonly<Record<string, string>> | undefined) {
    this.headers.set("Content-Type", "application/json");
    this.headers.set("X-Request-Id", "");
    for (const name of LIMIT_NAMES) this.headers.set(name, "");
    // Set, not appended: an answer's own Content-Type takes the place of the default, as in the plain object.
    if (own) for (const name in own) this.headers.set(name, own[name]!);
  }

  fill(requestId: string, limit: LimitHeaders): Headers {
    if (requestId !== this.requestId) this.headers.set("X-Request-Id", (this.requestId = requestId));
    for (let i = 0; i < LIMIT_NAMES.length; i++) {
      const value = limit[LIMIT_NAMES[i]!];
      if (value !== this.limit[i]) this.headers.set(LIMIT_NAMES[i]!, (this.limit[i] = value));
    }
    return this.headers;
  }
}

/**
 * The headers of one answer: `Content-Type` (none on a 304), `X-Request-Id`, the rate-limit fields,
 * then the answer's own.
 * @example const headers = new ReplyHeaders(); new Response(body, { status: 200, headers: headers.of(200, requestId, limit, body.etagHeader) })
 */
export class ReplyHeaders {
  private readonly bare = new Shape(undefined);
  /** Keyed by the frozen object itself: a kept body's headers live as long as the body. */
  private readonly byOwn = new WeakMap<Readonly<Record<string, string>>, Shape>();

  of(status: number, requestId: string, limit: LimitHeaders | null, own: Record<string, string> | undefined): Headers | Record<string, string> {
    if (limit !== null && status !== 304) {
      if (own === undefined) return this.bare.fill(requestId, limit);
      if (Object.isFrozen(own)) {
        let shape = this.byOwn.get(own);
        if (shape === undefined) this.byOwn.set(own, (shape = new Shape(own)));
        return shape.fill(requestId, limit);
      }
    }
    // A 304 has no body, so no type: its headers are those of the 200 it stands for.
    const headers: Record<string, string> = status === 304 ? { "X-Request-Id": requestId } : { "Content-Type": "application/json", "X-Request-Id": requestId };
    if (limit) for (const name in limit) headers[name] = limit[name as keyof LimitHeaders];
    if (own) for (const name in own) headers[name] = own[name]!;
    return headers;
  }
}

/**
 * One request as it goes through the stages of the HTTP surface (src/http/app.ts): what was cut from
 * it when it came, and what each stage learned.
 */
import type { KeyAuth } from "../store/keys.ts";
import type { LimitHeaders } from "./reply-headers.ts";

const REQUEST_ID = /^[\x20-\x7e]{1,64}$/;
let requestCounter = 0;
const requestIdPrefix = crypto.randomUUID().slice(0, 8);

export interface RequestState {
  readonly req: Request;
  readonly path: string;
  readonly query: string;
  /** The client's X-Request-Id when it is printable and short, else one of ours. */
  readonly requestId: string;
  /** performance.now() when it came: the log line's duration. */
  readonly started: number;
  /** Its writes may wait for the turn's shared commit (nothing can be pipelined behind them). */
  readonly mayShareCommit: boolean;
  /** The clock's time and the data generation it is answered in: set first thing by the handling stage (a failure there is the request's answer). */
  now: number;
  generation: number;
  key: KeyAuth | null;
  /** A GET or HEAD's If-None-Match, once the key is known to have room (else null). */
  ifNoneMatch: string | null;
  limitHeaders: LimitHeaders | null;
  /** The limit a refused request exceeded: its log line is the warn one. */
  refusedLimit: number | null;
  /** The path's routes are probes that are not logged (/healthz). */
  quiet: boolean;
  /** The matched route's template, for metrics. */
  route: string | null;
  /** A conditional GET not counted yet: counted before any work, or once answered unless a 304. */
  deferred: boolean;
}

/**
 * A request's state as it comes: path and query cut from the raw URL (not parsed), its id.
 * @example requestState(req, { started: performance.now(), mayShareCommit: true }).path // "/v1/ingredients"
 */
export function requestState(req: Request, when: Pick<RequestState, "started" | "mayShareCommit">): RequestState {
  const url = req.url;
  // A request without a Host header (HTTP/1.0, as health checkers send) has a bare path for its url.
  const pathStart = url.charCodeAt(0) === 47 ? 0 : url.indexOf("/", url.indexOf("//") + 2);
  const queryStart = url.indexOf("?", pathStart);
  const given = req.headers.get("x-request-id");
  return {
    req,
    path: queryStart === -1 ? url.slice(pathStart) : url.slice(pathStart, queryStart),
    query: queryStart === -1 ? "" : url.slice(queryStart + 1),
    requestId: given !== null && REQUEST_ID.test(given) ? given : `${requestIdPrefix}-${(++requestCounter).toString(36)}`,
    started: when.started,
    mayShareCommit: when.mayShareCommit,
    now: 0,
    generation: 0,
    key: null,
    ifNoneMatch: null,
    limitHeaders: null,
    refusedLimit: null,
    quiet: false,
    route: null,
    deferred: false,
  };
}

import type { LimitDecision } from "../limiter/sliding-window.ts";

const WINDOW_SECONDS = 3600;

/**
 * The rate-limit fields of docs/decisions.md#rate-limiting for one decision: the IETF `RateLimit-Policy`/`RateLimit`
 * pair and the familiar `X-RateLimit-*` trio. Reset is rounded up so a client that waits until it
 * is never refused for waiting too little.
 * @example rateLimitHeaders({ allowed: true, limit: 100, remaining: 99, resetSeconds: 3600 }, Date.now())
 */
export function rateLimitHeaders(d: LimitDecision, nowMs: number): Record<string, string> {
  return {
    "RateLimit-Policy": `"default";q=${d.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"default";r=${d.remaining};t=${d.resetSeconds}`,
    "X-RateLimit-Limit": String(d.limit),
    "X-RateLimit-Remaining": String(d.remaining),
    "X-RateLimit-Reset": String(Math.ceil(nowMs / 1000) + d.resetSeconds),
  };
}

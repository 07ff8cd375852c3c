import type { LimitDecision } from "../limiter/sliding-window.ts";

const WINDOW_SECONDS = 3600;

/** The two header values that depend on a key's limit alone, made once per limit (keys share a few). */
const byLimit = new Map<number, { policy: string; limit: string }>();
function policyOf(limit: number): { policy: string; limit: string } {
  const made = { policy: `"default";q=${limit};w=${WINDOW_SECONDS}`, limit: String(limit) };
  // Limits are set by admins (a handful of values); the bound only guards against a surprise.
  if (byLimit.size < 1024) byLimit.set(limit, made);
  return made;
}

/**
 * The rate-limit fields of docs/decisions.md#rate-limiting for one decision: the IETF `RateLimit-Policy`/`RateLimit`
 * pair and the familiar `X-RateLimit-*` trio. Reset is rounded up so a client that waits until it
 * is never refused for waiting too little.
 * @example rateLimitHeaders({ allowed: true, limit: 100, remaining: 99, resetSeconds: 3600 }, Date.now())
 */
export function rateLimitHeaders(d: LimitDecision, nowMs: number): Record<string, string> {
  const fixed = byLimit.get(d.limit) ?? policyOf(d.limit);
  return {
    "RateLimit-Policy": fixed.policy,
    RateLimit: `"default";r=${d.remaining};t=${d.resetSeconds}`,
    "X-RateLimit-Limit": fixed.limit,
    "X-RateLimit-Remaining": String(d.remaining),
    "X-RateLimit-Reset": String(Math.ceil(nowMs / 1000) + d.resetSeconds),
  };
}

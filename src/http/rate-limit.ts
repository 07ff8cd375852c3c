import { DEFAULT_WINDOW_MS, type LimitDecision } from "../limiter/sliding-window.ts";

/**
 * The rate-limit fields every keyed answer carries, by name, in the OpenAPI document's words: the one
 * place their names are written (`rateLimitHeaders` must give exactly these, or it does not compile).
 */
export const RATE_LIMIT_FIELDS = {
  "RateLimit-Policy": { description: `The key's policy: \`"default";q=<requests>;w=<window seconds>\` (the window is ${DEFAULT_WINDOW_MS / 1000} s).`, type: "string" },
  RateLimit: { description: 'Remaining requests and seconds until the oldest counted request leaves the window: `"default";r=<n>;t=<s>`.', type: "string" },
  "X-RateLimit-Limit": { description: "Requests allowed in the window (per hour).", type: "integer" },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", type: "integer" },
  "X-RateLimit-Reset": { description: "Unix seconds when the window has room again.", type: "integer" },
} as const;

/** The two header values that depend on a key's limit alone, made once per limit (keys share a few). */
const byLimit = new Map<number, { policy: string; limit: string; window: number }>();
function policyOf(limit: number, window: number): { policy: string; limit: string; window: number } {
  const made = { policy: `"default";q=${limit};w=${window}`, limit: String(limit), window };
  // Limits are set by admins (a handful of values); the bound only guards against a surprise.
  if (byLimit.size < 1024) byLimit.set(limit, made);
  return made;
}

/**
 * The rate-limit fields of docs/decisions.md#rate-limiting for one decision: the IETF `RateLimit-Policy`/`RateLimit`
 * pair and the familiar `X-RateLimit-*` trio; `w=` is the window the decision was made in. Reset is
 * rounded up so a client that waits until it is never refused for waiting too little.
 * @example rateLimitHeaders({ allowed: true, limit: 100, remaining: 99, resetSeconds: 3600, windowSeconds: 3600 }, Date.now())
 */
export function rateLimitHeaders(d: LimitDecision, nowMs: number): Record<keyof typeof RATE_LIMIT_FIELDS, string> {
  const cached = byLimit.get(d.limit);
  // One limiter's window is fixed; a decision from a limiter with another window makes its own.
  const fixed = cached !== undefined && cached.window === d.windowSeconds ? cached : policyOf(d.limit, d.windowSeconds);
  return {
    "RateLimit-Policy": fixed.policy,
    RateLimit: `"default";r=${d.remaining};t=${d.resetSeconds}`,
    "X-RateLimit-Limit": fixed.limit,
    "X-RateLimit-Remaining": String(d.remaining),
    "X-RateLimit-Reset": String(Math.ceil(nowMs / 1000) + d.resetSeconds),
  };
}

/**
 * When a failed delivery is tried again (docs/decisions.md#webhooks): pure functions of the attempt count, the
 * receiver's answer and a random source, so the loop stays about I/O and the policy is testable.
 */

/** Seconds after attempt 1, 2, … 7: 8 attempts over about a day (docs/decisions.md#webhooks). */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5, 60, 300, 1800, 7200, 21600, 43200];

/** Each interval is stretched or shrunk by up to this fraction, so receivers that failed together are not retried together. */
export const JITTER = 0.2;

/** A `Retry-After` longer than this is cut to it: the receiver's own wish must not park a delivery for days. */
export const RETRY_AFTER_CAP_MS = 3_600_000;

/**
 * Parses `FEEDBASE_RETRY_SCHEDULE`: comma-separated seconds (fractions allowed, for tests); its length
 * sets the number of retries and an empty value means none. Throws a RangeError naming the bad entry.
 *
 * @example
 * parseRetrySchedule("0.05,0.1,1"); // [0.05, 0.1, 1]
 * parseRetrySchedule("");           // [] (one attempt, then failed)
 */
export function parseRetrySchedule(text: string): number[] {
  if (text.trim() === "") return [];
  return text.split(",").map((part) => {
    const seconds = Number(part.trim());
    if (part.trim() === "" || !Number.isFinite(seconds) || seconds < 0 || seconds > 7 * 86_400) {
      throw new RangeError(`retry schedule entries must be seconds from 0 to 604800, got "${part.trim()}"`);
    }
    return seconds;
  });
}

/**
 * Milliseconds to wait after attempt number `attempts` (1-based) failed, with ±20 % jitter; `null` when
 * the schedule is used up and the delivery is `failed`.
 *
 * @example
 * retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, () => 0.5); // 5000 (random 0.5 = no jitter)
 * retryDelayMs(8, DEFAULT_RETRY_SCHEDULE);            // null: that was the last attempt
 */
export function retryDelayMs(attempts: number, schedule: readonly number[], random: () => number = Math.random): number | null {
  const seconds = schedule[attempts - 1];
  if (seconds === undefined) return null;
  const factor = 1 - JITTER + 2 * JITTER * random();
  return Math.round(seconds * 1000 * factor);
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds, capped at 1 h; `null` when absent or
 * unreadable. Both forms of RFC 9110 are read: delay-seconds and an HTTP date.
 *
 * @example
 * retryAfterMs("120", now);                             // 120000
 * retryAfterMs("Wed, 21 Oct 2026 07:28:00 GMT", now);   // that date minus now (0 if past)
 * retryAfterMs("86400", now);                           // 3600000 (the cap)
 */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date names its day and month; this also keeps "-5" from parsing as the year -5.
    const date = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(date)) return null;
    ms = Math.max(0, date - nowMs);
  }
  return Math.min(ms, RETRY_AFTER_CAP_MS);
}

/** What an attempt's answer means for its delivery. */
export interface AttemptVerdict {
  status: "delivered" | "pending" | "failed";
  /** When pending: the next attempt's time (epoch ms); otherwise `nowMs`. */
  nextAttemptAt: number;
  /** The receiver answered 410 Gone: its webhook is disabled. */
  disable: boolean;
}

/**
 * The outcome rules of one attempt (docs/decisions.md#webhooks): any 2xx is delivered; otherwise the
 * next attempt follows the schedule, at the receiver's `Retry-After` on a 429 or 503 (the attempt
 * still counts), or the delivery is `failed` once the schedule is used up; a 410 also disables the webhook.
 * @example attemptVerdict({ status: 503, retryAfter: "120" }, 1, DEFAULT_RETRY_SCHEDULE, now) // { status: "pending", nextAttemptAt: now + 120000, disable: false }
 */
export function attemptVerdict(
  answer: { status: number | null; retryAfter: string | null },
  attempt: number,
  schedule: readonly number[],
  nowMs: number,
  random: () => number = Math.random,
): AttemptVerdict {
  const disable = answer.status === 410;
  if (answer.status !== null && answer.status >= 200 && answer.status < 300) return { status: "delivered", nextAttemptAt: nowMs, disable };
  const scheduled = retryDelayMs(attempt, schedule, random);
  if (scheduled === null) return { status: "failed", nextAttemptAt: nowMs, disable };
  const asked = answer.status === 429 || answer.status === 503 ? retryAfterMs(answer.retryAfter, nowMs) : null;
  return { status: "pending", nextAttemptAt: nowMs + (asked ?? scheduled), disable };
}

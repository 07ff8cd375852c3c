import { describe, expect, test } from "bun:test";
import { attemptVerdict, DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, retryAfterMs, retryDelayMs } from "../src/webhooks/retry.ts";

describe("retry policy", () => {
  test("the default schedule is 8 attempts over about a day, each interval jittered by at most ±20 %", () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([5, 60, 300, 1800, 7200, 21600, 43200]);
    DEFAULT_RETRY_SCHEDULE.forEach((seconds, i) => {
      expect(retryDelayMs(i + 1, DEFAULT_RETRY_SCHEDULE, () => 0)).toBe(seconds * 800);
      expect(retryDelayMs(i + 1, DEFAULT_RETRY_SCHEDULE, () => 0.5)).toBe(seconds * 1000);
      expect(retryDelayMs(i + 1, DEFAULT_RETRY_SCHEDULE, () => 0.999999)).toBeLessThanOrEqual(seconds * 1200);
    });
    expect(retryDelayMs(8, DEFAULT_RETRY_SCHEDULE)).toBeNull();
    for (let i = 0; i < 1000; i++) {
      const ms = retryDelayMs(1, DEFAULT_RETRY_SCHEDULE)!;
      expect(ms).toBeGreaterThanOrEqual(4000);
      expect(ms).toBeLessThanOrEqual(6000);
    }
  });

  test("FEEDBASE_RETRY_SCHEDULE: comma-separated seconds; its length sets the number of retries", () => {
    expect(parseRetrySchedule("0.05, 1,2")).toEqual([0.05, 1, 2]);
    expect(parseRetrySchedule("")).toEqual([]);
    expect(retryDelayMs(1, [], () => 0.5)).toBeNull();
    for (const bad of ["1,,2", "-1", "abc", "1e9", "Infinity"]) expect(() => parseRetrySchedule(bad)).toThrow(RangeError);
  });

  test("Retry-After: seconds or an HTTP date, capped at 1 h; unreadable is ignored", () => {
    const now = Date.parse("2026-11-21T14:00:00.000Z");
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("86400", now)).toBe(3_600_000);
    expect(retryAfterMs("Sat, 21 Nov 2026 14:02:00 GMT", now)).toBe(120_000);
    expect(retryAfterMs("Sat, 21 Nov 2026 13:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs("-5", now)).toBeNull();
  });
});

describe("attempt outcome rules", () => {
  const now = Date.parse("2026-11-21T12:00:00.000Z");
  const half = () => 0.5; // no jitter
  test("any 2xx is delivered; anything else waits for the schedule, then fails; 410 also disables the webhook", () => {
    expect(attemptVerdict({ status: 204, retryAfter: null }, 1, DEFAULT_RETRY_SCHEDULE, now, half)).toEqual({ status: "delivered", nextAttemptAt: now, disable: false });
    expect(attemptVerdict({ status: 500, retryAfter: "10" }, 1, DEFAULT_RETRY_SCHEDULE, now, half)).toEqual({ status: "pending", nextAttemptAt: now + 5000, disable: false });
    expect(attemptVerdict({ status: null, retryAfter: null }, 2, DEFAULT_RETRY_SCHEDULE, now, half)).toEqual({ status: "pending", nextAttemptAt: now + 60_000, disable: false });
    expect(attemptVerdict({ status: 500, retryAfter: null }, 8, DEFAULT_RETRY_SCHEDULE, now, half)).toEqual({ status: "failed", nextAttemptAt: now, disable: false });
    expect(attemptVerdict({ status: 410, retryAfter: null }, 1, DEFAULT_RETRY_SCHEDULE, now, half)).toEqual({ status: "pending", nextAttemptAt: now + 5000, disable: true });
  });

  test("Retry-After replaces the interval on 429 and 503 only, and the attempt still counts", () => {
    expect(attemptVerdict({ status: 429, retryAfter: "120" }, 1, DEFAULT_RETRY_SCHEDULE, now, half).nextAttemptAt).toBe(now + 120_000);
    expect(attemptVerdict({ status: 503, retryAfter: "7200" }, 1, DEFAULT_RETRY_SCHEDULE, now, half).nextAttemptAt).toBe(now + 3_600_000);
    expect(attemptVerdict({ status: 500, retryAfter: "120" }, 1, DEFAULT_RETRY_SCHEDULE, now, half).nextAttemptAt).toBe(now + 5000);
    expect(attemptVerdict({ status: 503, retryAfter: "120" }, 8, DEFAULT_RETRY_SCHEDULE, now, half).status).toBe("failed");
  });
});

import { describe, expect, test } from "bun:test";
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, retryAfterMs, retryDelayMs } from "../src/webhooks/retry.ts";

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

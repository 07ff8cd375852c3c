import { describe, expect, test } from "bun:test";
import { KEY_OVERHEAD_BYTES, type LimitDecision, SlidingWindowLimiter } from "../src/limiter/sliding-window.ts";
import { seeded } from "./helpers/random.ts";

const HOUR = 3_600_000;

/**
 * The contract stated as directly as possible: keep every accepted timestamp forever and count
 * the trailing window (t − W, t] on each request. Slow, obviously right.
 */
class Reference {
  readonly accepted = new Map<string, number[]>();
  constructor(private readonly windowMs: number) {}

  check(keyId: string, limit: number, now: number): LimitDecision {
    const all = this.accepted.get(keyId) ?? [];
    this.accepted.set(keyId, all);
    const inWindow = all.filter((s) => s > now - this.windowMs);
    const allowed = inWindow.length < limit;
    if (allowed) {
      all.push(now);
      inWindow.push(now);
    }
    const oldest = inWindow[0];
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - inWindow.length),
      resetSeconds: oldest === undefined ? 0 : Math.ceil((oldest + this.windowMs - now) / 1000),
      windowSeconds: this.windowMs / 1000,
    };
  }
}

interface Scenario {
  seed: number;
  windowMs: number;
  arrivals: number;
  meanGapMs: number;
  keys: string[];
  limitAt: (keyId: string, now: number) => number;
  /** Long silences push every key past the window so the sweep drops them mid-run. */
  pauseEvery: number;
  pauseMs: number;
}

/**
 * Replays random arrivals through both implementations and returns the first disagreement.
 * Arrival times deliberately include bursts in the same millisecond and requests landing
 * exactly W, W ± 1 ms after an earlier acceptance, where an off-by-one in (t − W, t] would show.
 */
function runScenario(s: Scenario): { mismatch: string | null; limiter: SlidingWindowLimiter; now: number; counts: Record<string, number> } {
  const random = seeded(s.seed);
  let now = 1_700_000_000_000;
  const limiter = new SlidingWindowLimiter({ windowMs: s.windowMs, clock: () => now });
  const reference = new Reference(s.windowMs);
  const recentAccepted: number[] = [];
  const counts: Record<string, number> = { allowed: 0, refused: 0, boundary: 0 };
  for (let i = 0; i < s.arrivals; i++) {
    const r = random();
    if (i > 0 && i % s.pauseEvery === 0) {
      now += s.pauseMs;
    } else if (r < 0.1) {
      // same millisecond as the previous arrival
    } else if (r < 0.2 && recentAccepted.length > 0) {
      const base = recentAccepted[Math.floor(random() * recentAccepted.length)]!;
      const target = base + s.windowMs + (Math.floor(random() * 3) - 1);
      if (target >= now) {
        now = target;
        counts.boundary!++;
      }
    } else {
      now += Math.floor(-Math.log(1 - random()) * s.meanGapMs);
    }
    const keyId = s.keys[Math.floor(random() * s.keys.length)]!;
    const limit = s.limitAt(keyId, now);
    const expected = reference.check(keyId, limit, now);
    const actual = limiter.check(keyId, limit);
    if (
      actual.allowed !== expected.allowed ||
      actual.limit !== expected.limit ||
      actual.remaining !== expected.remaining ||
      actual.resetSeconds !== expected.resetSeconds
    ) {
      return {
        mismatch: `seed ${s.seed}, arrival ${i}, key ${keyId}, limit ${limit}, t ${now}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`,
        limiter,
        now,
        counts,
      };
    }
    if (actual.allowed) {
      counts.allowed!++;
      recentAccepted.push(now);
      if (recentAccepted.length > 500) recentAccepted.shift();
    } else {
      counts.refused!++;
    }
  }
  return { mismatch: null, limiter, now, counts };
}

/** Cycles through lowered and raised limits, including raises above anything seen before. */
const CHANGING_LIMITS = [100, 3, 300, 1, 50, 7];

describe("SlidingWindowLimiter matches a brute-force reference", () => {
  for (const seed of [1, 2, 3, 20261121]) {
    test(`one-hour window, limits 1, 2, 5, 100 and a changing one, seed ${seed}`, () => {
      const fixed: Record<string, number> = { k1: 1, k2: 2, k5: 5, k100: 100 };
      const { mismatch, counts } = runScenario({
        seed,
        windowMs: HOUR,
        arrivals: 12_000,
        meanGapMs: 1_500, // ≈ 2,400 arrivals an hour over 5 keys: limit 100 gets refusals too
        keys: ["k1", "k2", "k5", "k100", "kchg"],
        limitAt: (keyId, now) => fixed[keyId] ?? CHANGING_LIMITS[Math.floor(now / (10 * 60_000)) % CHANGING_LIMITS.length]!,
        pauseEvery: 4_000,
        pauseMs: 2 * HOUR,
      });
      expect(mismatch).toBeNull();
      // The run is only meaningful if it exercised both outcomes and the window's edge.
      expect(counts.allowed).toBeGreaterThan(1_000);
      expect(counts.refused).toBeGreaterThan(1_000);
      expect(counts.boundary).toBeGreaterThan(100);
    });
  }

  test("short window, many keys, frequent sweeps", () => {
    const keys = Array.from({ length: 60 }, (_, i) => `key_${i}`);
    const limits = [1, 2, 5, 100];
    const { mismatch, limiter, counts } = runScenario({
      seed: 7,
      windowMs: 10_000,
      arrivals: 40_000,
      meanGapMs: 10,
      keys,
      limitAt: (keyId, now) => {
        const i = Number(keyId.slice(4));
        if (i === 0) return CHANGING_LIMITS[Math.floor(now / 3_000) % CHANGING_LIMITS.length]!;
        return limits[i % limits.length]!;
      },
      pauseEvery: 5_000,
      pauseMs: 15_000,
    });
    expect(mismatch).toBeNull();
    expect(counts.refused).toBeGreaterThan(1_000);
    expect(limiter.size).toBeLessThanOrEqual(keys.length);
  });
});

describe("SlidingWindowLimiter", () => {
  test("limit 5 gives exactly 5 then refusals", () => {
    const now = 1_000_000;
    const limiter = new SlidingWindowLimiter({ clock: () => now });
    const remaining = Array.from({ length: 5 }, () => limiter.check("a", 5)).map((d) => {
      expect(d.allowed).toBe(true);
      expect(d.resetSeconds).toBe(3600);
      return d.remaining;
    });
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    for (let i = 0; i < 3; i++) {
      expect(limiter.check("a", 5)).toEqual({ allowed: false, limit: 5, remaining: 0, resetSeconds: 3600, windowSeconds: 3600 });
    }
    // Another key is independent.
    expect(limiter.check("b", 5).remaining).toBe(4);
  });

  test("the window slides: each request frees its slot exactly W later", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter({ windowMs: 10_000, clock: () => now });
    limiter.check("a", 2); // t = 0
    now = 4_000;
    limiter.check("a", 2); // t = 4 s
    now = 9_999;
    expect(limiter.check("a", 2)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1, windowSeconds: 10 });
    now = 10_000; // the t = 0 request leaves: (t − W, t] excludes t − W
    expect(limiter.check("a", 2)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 4, windowSeconds: 10 });
    now = 13_999;
    expect(limiter.check("a", 2).allowed).toBe(false);
    now = 14_000;
    expect(limiter.check("a", 2)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 6, windowSeconds: 10 });
    now = 30_000;
    expect(limiter.check("a", 2)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 10, windowSeconds: 10 });
  });

  test("refused requests do not count", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter({ windowMs: 10_000, clock: () => now });
    limiter.check("a", 1);
    for (now = 1_000; now < 10_000; now += 1_000) expect(limiter.check("a", 1).allowed).toBe(false);
    now = 10_000;
    expect(limiter.check("a", 1).allowed).toBe(true);
  });

  test("resetSeconds rounds up and is 0 when nothing is counted", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter({ clock: () => now });
    limiter.check("a", 1);
    now = HOUR - 1; // 0.001 s left
    expect(limiter.check("a", 1).resetSeconds).toBe(1);
    now = HOUR - 1_000; // exactly 1 s left
    expect(limiter.check("a", 1).resetSeconds).toBe(1);
    now = HOUR - 1_001;
    // The clock went back; treated as no time passing, so still 0.001 s left.
    expect(limiter.check("a", 1).resetSeconds).toBe(1);

    const later = new SlidingWindowLimiter({ windowMs: 10_000, clock: () => now });
    now = 0;
    later.check("c", 1);
    now = 8_999; // 1.001 s left
    expect(later.check("c", 1).resetSeconds).toBe(2);
    expect(later.check("zero", 0)).toEqual({ allowed: false, limit: 0, remaining: 0, resetSeconds: 0, windowSeconds: 10 });
    expect(later.size).toBe(1); // a limit-0 refusal leaves no state
  });

  test("a lowered limit refuses until old requests leave; raising it again still sees them", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter({ windowMs: 10_000, clock: () => now });
    for (let i = 0; i < 10; i++) {
      now = i * 100;
      expect(limiter.check("a", 10).allowed).toBe(true);
    }
    now = 2_000;
    expect(limiter.check("a", 3)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 8, windowSeconds: 10 });
    // Raising back above the lowered value: all 10 accepted requests are still in the window.
    expect(limiter.check("a", 10).allowed).toBe(false);
    expect(limiter.check("a", 12)).toEqual({ allowed: true, limit: 12, remaining: 1, resetSeconds: 8, windowSeconds: 10 });
    now = 10_700; // requests at 0..700 have left; 800, 900 and 2000 remain
    expect(limiter.check("a", 3)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 1, windowSeconds: 10 });
    now = 10_800; // 900 and 2000 remain
    expect(limiter.check("a", 3)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 1, windowSeconds: 10 });
  });

  test("a clock stepping backwards never admits more than the limit", () => {
    let now = 50_000;
    const limiter = new SlidingWindowLimiter({ windowMs: 10_000, clock: () => now });
    for (let i = 0; i < 3; i++) limiter.check("a", 3);
    now = 0; // NTP step back by far more than a window
    expect(limiter.check("a", 3).allowed).toBe(false);
    now = 59_999;
    expect(limiter.check("a", 3).allowed).toBe(false);
    now = 60_000;
    expect(limiter.check("a", 3).allowed).toBe(true);
  });

  test("idle keys are dropped and then behave as new", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter({ windowMs: 10_000, clock: () => now });
    for (let i = 0; i < 100; i++) {
      limiter.check(`k${i}`, 2);
      limiter.check(`k${i}`, 2);
    }
    expect(limiter.size).toBe(100);
    now = 5_000; // still in the window: nothing may be dropped
    limiter.check("other", 2);
    expect(limiter.size).toBe(101);
    now = 12_500; // a quarter window after the last sweep, all k* idle for over a window
    limiter.check("other", 2);
    expect(limiter.size).toBe(1);
    expect(limiter.check("k7", 2)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 10, windowSeconds: 10 });
    expect(limiter.size).toBe(2);
  });

  test("its bytes grow with accepted requests up to 8 × the limit a key, and fall when idle keys go", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter({ windowMs: 10_000, clock: () => now });
    const ringBytes = (slots: number) => 8 * (2 + slots) + 2 * "hot".length + KEY_OVERHEAD_BYTES;
    limiter.check("hot", 1_000);
    expect(limiter.bytes).toBe(ringBytes(4));
    // Hammered far past its limit: only the 1,000 accepted are kept.
    for (let i = 0; i < 5_000; i++, now++) limiter.check("hot", 1_000);
    expect(limiter.bytes).toBe(ringBytes(1_000));
    now = 30_000;
    limiter.check("cold", 1);
    expect(limiter.bytes).toBe(8 * (2 + 1) + 2 * "cold".length + KEY_OVERHEAD_BYTES);
  });

  test("a burst of new keys triggers a sweep before the time-based one is due", () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter({ windowMs: 1_000_000, clock: () => now });
    for (let i = 0; i < 2_000; i++) limiter.check(`old${i}`, 1);
    now = 999_999; // time-based sweep: the old keys are still live, the next one is due at 1,249,999
    limiter.check("x", 1);
    expect(limiter.size).toBe(2_001);
    for (let i = 0; i < 20_000; i++) {
      now = 1_000_000 + i; // every old key is now dead
      limiter.check(`new${i}`, 1);
    }
    expect(limiter.size).toBe(20_001); // the new keys and x; only a size-triggered sweep can have dropped the old ones
  });

  test("rejects limits that are not non-negative integers", () => {
    const limiter = new SlidingWindowLimiter();
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => limiter.check("a", bad)).toThrow(RangeError);
    }
    expect(() => new SlidingWindowLimiter({ windowMs: 0 })).toThrow(RangeError);
  });

  test("uses Date.now by default", () => {
    const limiter = new SlidingWindowLimiter();
    const d = limiter.check("a", 100);
    expect(d).toEqual({ allowed: true, limit: 100, remaining: 99, resetSeconds: 3600, windowSeconds: 3600 });
  });
});

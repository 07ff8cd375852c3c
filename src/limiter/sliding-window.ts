import type { Clock } from "../domain/time.ts";

/**
 * The outcome of one rate-limit check, with everything the HTTP layer needs for the
 * `RateLimit`/`X-RateLimit-*`/`Retry-After` headers (docs/decisions.md#rate-limiting).
 * @example
 * const d: LimitDecision = limiter.check(key.id, key.rateLimit);
 * if (!d.allowed) headers.set("Retry-After", String(Math.max(1, d.resetSeconds)));
 */
export interface LimitDecision {
  /** True when the request is accepted (and now counts against the key). */
  allowed: boolean;
  /** The limit the decision was made under, echoed for `RateLimit-Policy: q=`. */
  limit: number;
  /** max(0, limit − accepted requests in the window after this decision). */
  remaining: number;
  /** Seconds, rounded up, until the oldest counted request leaves the window; 0 when none is counted. */
  resetSeconds: number;
  /** The window's length in seconds, echoed for `RateLimit-Policy: w=`. */
  windowSeconds: number;
}

/**
 * Options for {@link SlidingWindowLimiter}; both exist for tests, production uses the defaults.
 * @example
 * const opts: SlidingWindowOptions = { windowMs: 10_000, clock: () => fakeNow };
 */
export interface SlidingWindowOptions {
  /** Window length in milliseconds; default 3,600,000 (one hour, docs/decisions.md#rate-limiting). */
  windowMs?: number;
  /** Epoch milliseconds; default Date.now. */
  clock?: Clock;
  /** What other instances on the same database accepted (./shared-counts.ts); none for one process alone. */
  shared?: SharedWindow;
}

/**
 * The other instances' side of a key's window: their accepted requests still in it, as last heard,
 * and where this instance tells of its own. @example const limiter = new SlidingWindowLimiter({ shared: counts })
 */
export interface SharedWindow {
  /** Requests of `keyId` the other instances accepted in the window, as of the last exchange. */
  othersInWindow(keyId: string): number;
  /** This instance accepted one request of `keyId` at `ms`. */
  accepted(keyId: string, ms: number): void;
}

/** docs/decisions.md#rate-limiting: at most L accepted requests in any 3,600 s window. The one place the default window is written. */
export const DEFAULT_WINDOW_MS = 3_600_000;

/**
 * Small enough that 100,000 keys making a handful of requests each stay cheap, large enough
 * that a typical key (a few requests an hour) never reallocates.
 */
const INITIAL_CAPACITY = 4;
/** A key's map entry and typed-array header beside its ring (bench/limiter.ts measured 174 bytes a key with a 4-slot ring and a 15-character id: 48 of ring, 30 of id, the rest this, rounded up). */
export const KEY_OVERHEAD_BYTES = 96;

/**
 * Per-key state is one Float64Array: [head, count, ring...], the ring holding the key's accepted
 * timestamps still inside the window, oldest at head. One array instead of an object holding an
 * array saves about 48 bytes and a pointer chase per key (bench/limiter.ts on Bun 1.3.14: 222 → 174
 * bytes per key, Map entry included). Float64 because epoch milliseconds exceed 2^32; head and
 * count are small integers, exact in a double.
 */
type KeyState = Float64Array;
const HEAD = 0;
const COUNT = 1;
const RING = 2;

/**
 * Exact sliding-window rate limiter, in memory, for one process: a request for a key with limit
 * L is accepted iff fewer than L requests of that key were accepted in the trailing window
 * (t − W, t]. Refused requests are not counted, so a client hammering a closed window does not
 * extend its own lock-out.
 *
 * Memory per key is bounded by its limit, not its traffic: only accepted timestamps still in the
 * window are kept (never more than the largest limit in force while they were accepted), in a
 * ring that starts at 4 entries and doubles on demand. Keys with nothing left in the window are
 * dropped by an amortised sweep run from `check` itself, so no timer keeps the process alive.
 *
 * @example
 * const limiter = new SlidingWindowLimiter();
 * const d = limiter.check(key.id, key.rateLimit);
 * if (!d.allowed) return rateLimited(d); // 401 "Rate limit exceeded", Retry-After: max(1, d.resetSeconds)
 */
export class SlidingWindowLimiter {
  private readonly windowMs: number;
  private readonly windowSeconds: number;
  private readonly clock: Clock;
  private readonly shared: SharedWindow | undefined;
  private readonly keys = new Map<string, KeyState>();
  /**
   * The latest time seen. Date.now can step backwards (NTP); each ring must stay sorted for
   * eviction from the head to be exact, so a backward step is treated as "no time has passed",
   * which can only refuse more, never admit more than L in a window.
   */
  private now = -Infinity;
  private nextSweepAt = -Infinity;
  private sizeAfterSweep = 0;

  /**
   * @param opts windowMs (default one hour) and clock (default Date.now), both injectable for tests.
   * @example
   * let t = 0;
   * const limiter = new SlidingWindowLimiter({ windowMs: 10_000, clock: () => t });
   */
  constructor(opts: SlidingWindowOptions = {}) {
    const windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
    if (!(windowMs > 0) || !Number.isFinite(windowMs)) {
      throw new RangeError(`windowMs must be a positive finite number, got ${windowMs}`);
    }
    this.windowMs = windowMs;
    this.windowSeconds = windowMs / 1000;
    this.clock = opts.clock ?? Date.now;
    this.shared = opts.shared;
  }

  /**
   * Decide one request for keyId under limit (the key's current limit, which can change between
   * calls). Lowering a limit refuses until enough old requests leave the window; raising it takes
   * effect at once, because every accepted timestamp still in the window is kept.
   * @param limit a non-negative integer; 0 refuses everything.
   * @param record false asks without counting: whether there is room now (a conditional GET answered 304 is free).
   * @throws RangeError if limit is not a non-negative integer (a caller bug, not a client error).
   * @example
   * const d = limiter.check("key_abc", 100);
   * // d = { allowed: true, limit: 100, remaining: 99, resetSeconds: 3600, windowSeconds: 3600 } on a fresh key
   */
  check(keyId: string, limit: number, record = true): LimitDecision {
    if (!(limit >= 0) || !Number.isInteger(limit)) {
      throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
    }
    let now = this.clock();
    if (now < this.now) now = this.now;
    else this.now = now;
    if (now >= this.nextSweepAt || this.keys.size >= 2 * this.sizeAfterSweep + 1024) this.sweep(now);

    const cutoff = now - this.windowMs;
    let state = this.keys.get(keyId);
    if (state === undefined) {
      if (limit === 0) return { allowed: false, limit, remaining: 0, resetSeconds: 0, windowSeconds: this.windowSeconds };
      state = new Float64Array(RING + (limit < INITIAL_CAPACITY ? limit : INITIAL_CAPACITY));
      this.keys.set(keyId, state);
    }

    // Indices below are absolute (RING ≤ head < end), so the ring needs no offset arithmetic.
    let end = state.length;
    let head = state[HEAD]! + RING;
    let count = state[COUNT]!;
    // (t − W, t]: a timestamp exactly W old has left the window.
    while (count > 0 && state[head]! <= cutoff) {
      head = head + 1 === end ? RING : head + 1;
      count--;
    }

    // With other instances, their part of the window counts too (docs/decisions.md#rate-limiting).
    const others = this.shared === undefined ? 0 : this.shared.othersInWindow(keyId);
    const allowed = count + others < limit;
    if (allowed && record) {
      if (count === end - RING) {
        // count < limit here, so the capacity is below limit and the ring really grows.
        state = this.grow(keyId, state, head, count, limit);
        head = RING;
        end = state.length;
      }
      let tail = head + count;
      if (tail >= end) tail -= end - RING;
      state[tail] = now;
      count++;
      this.shared?.accepted(keyId, now);
    }
    state[HEAD] = head - RING;
    state[COUNT] = count;

    const resetSeconds = count === 0 ? 0 : Math.ceil((state[head]! + this.windowMs - now) / 1000);
    const used = count + others;
    return { allowed, limit, remaining: limit > used ? limit - used : 0, resetSeconds, windowSeconds: this.windowSeconds };
  }

  /**
   * Number of keys with state (for tests and the benchmark).
   * @example
   * limiter.check("a", 1); limiter.size // 1
   */
  get size(): number {
    return this.keys.size;
  }

  /**
   * Bytes the limiter holds: each key's ring (8 bytes a slot) and its id (UTF-16), plus about
   * KEY_OVERHEAD_BYTES of map entry and array header per key (bench/limiter.ts measured it). A key's
   * ring never exceeds its limit, so the bound is Σ over the keys used in the last window of
   * 8 × limit + overhead; /metrics reports it as feedbase_rate_limiter_bytes.
   * @example limiter.check("a", 100); limiter.bytes // 8 × (2 + 4) + 2 + KEY_OVERHEAD_BYTES
   */
  get bytes(): number {
    let bytes = 0;
    for (const [keyId, state] of this.keys) bytes += state.byteLength + 2 * keyId.length + KEY_OVERHEAD_BYTES;
    return bytes;
  }

  /**
   * Double the ring (at most to limit) and unroll it so the oldest entry comes first; the caller
   * then stores head = 0 and count. `head` is an absolute index into `old`.
   */
  private grow(keyId: string, old: KeyState, head: number, count: number, limit: number): KeyState {
    const doubled = (old.length - RING) * 2;
    const next = new Float64Array(RING + (doubled < limit ? doubled : limit));
    const firstPart = old.length - head < count ? old.length - head : count;
    next.set(old.subarray(head, head + firstPart), RING);
    if (firstPart < count) next.set(old.subarray(RING, RING + count - firstPart), RING + firstPart);
    this.keys.set(keyId, next);
    return next;
  }

  /**
   * Drop keys whose newest accepted request has left the window: their state says nothing a
   * fresh key would not. Run when a quarter window has passed (so dead state lives at most
   * 1.25 W) or when the map has doubled since the last sweep (so a burst of new keys cannot grow
   * it without bound); both make the sweep's cost amortised O(1) per check.
   */
  private sweep(now: number): void {
    const cutoff = now - this.windowMs;
    for (const [keyId, state] of this.keys) {
      const count = state[COUNT]!;
      const newest = RING + ((state[HEAD]! + count - 1) % (state.length - RING));
      if (count === 0 || state[newest]! <= cutoff) this.keys.delete(keyId);
    }
    this.nextSweepAt = now + this.windowMs / 4;
    this.sizeAfterSweep = this.keys.size;
  }
}

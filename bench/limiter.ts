/**
 * Cost of one rate-limit check and of the limiter's memory, for 100,000 active keys.
 *
 * Run: `bun bench/limiter.ts`. Prints one JSON object on stdout (for bench/run.ts, which puts the
 * figures in bench/RESULTS.md); nothing else goes to stdout.
 *
 * Machines differ, so the figure that travels is the ratio to a baseline measured in the same
 * run: a bare `Map.get` and counter increment over the same keys in the same order — the least
 * any per-key limiter can do.
 *
 * Steady state, not growth: each key is seeded with 3 accepted requests spread over the window,
 * and every timed round moves the clock forward a third of a window, so each check evicts one
 * request and accepts one (the common case in production), with the real Date.now cost included.
 * The sweep that the clock jump triggers is timed on its own (`sweepMs`) rather than smeared over
 * one round: in production it runs once per quarter window, not once per 100,000 checks.
 *
 * `stateBytes` is the growth of the JS heap (after a full GC) from creating and seeding the
 * limiter. It excludes the key id strings, which the caller owns and which exist anyway.
 *
 * @example
 * // $ bun bench/limiter.ts
 * // {"keys":100000,"nsPerCheck":…,"baselineNsPerOp":…,"ratio":…,"stateBytes":…,"bytesPerKey":…,…}
 */
import { heapStats } from "bun:jsc";
import { SlidingWindowLimiter } from "../src/limiter/sliding-window.ts";

const KEYS = 100_000;
const LIMIT = 100;
const ROUNDS = 9;
const WINDOW_MS = 3_600_000;
/** A third of a window and a bit, so round r's requests leave exactly at round r + 3. */
const STEP_MS = WINDOW_MS / 3 + 1_000;

/** Deterministic shuffle, so every run visits keys in the same cache-unfriendly order. */
function permutation(n: number, seed: number): Uint32Array {
  const p = new Uint32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  let s = seed >>> 0;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    const t = p[i]!;
    p[i] = p[j]!;
    p[j] = t;
  }
  return p;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

const heapBytes = (): number => {
  Bun.gc(true);
  const h = heapStats();
  return h.heapSize + h.extraMemorySize;
};

// Shaped like real key ids ("key_" + 12 base62), made once so neither side pays for strings.
const keyIds = Array.from({ length: KEYS }, (_, i) => "key_" + i.toString(36).padStart(12, "0"));
const order = permutation(KEYS, 42);

const heapBefore = heapBytes();

let offset = 0;
const limiter = new SlidingWindowLimiter({ clock: () => Date.now() + offset });
for (let r = 0; r < 3; r++) {
  for (let i = 0; i < KEYS; i++) limiter.check(keyIds[order[i]!]!, LIMIT);
  offset += STEP_MS;
}

const heapAfter = heapBytes();
const stateBytes = heapAfter - heapBefore;

const baseline = new Map<string, { n: number }>();
for (const id of keyIds) baseline.set(id, { n: 0 });

const checkNs: number[] = [];
const baselineNs: number[] = [];
const sweepMs: number[] = [];
let accepted = 0;
let baselineSum = 0;
for (let r = 0; r < ROUNDS; r++) {
  // The first check after the clock jump runs the full sweep; time it apart from the hot path.
  let t0 = Bun.nanoseconds();
  limiter.check("sweep-trigger", LIMIT);
  sweepMs.push((Bun.nanoseconds() - t0) / 1e6);

  t0 = Bun.nanoseconds();
  for (let i = 0; i < KEYS; i++) {
    if (limiter.check(keyIds[order[i]!]!, LIMIT).allowed) accepted++;
  }
  checkNs.push((Bun.nanoseconds() - t0) / KEYS);

  t0 = Bun.nanoseconds();
  for (let i = 0; i < KEYS; i++) baseline.get(keyIds[order[i]!]!)!.n++;
  baselineNs.push((Bun.nanoseconds() - t0) / KEYS);
  offset += STEP_MS;
}
for (const c of baseline.values()) baselineSum += c.n;

// Also keeps both loops observable, so neither can be optimised away.
if (accepted !== ROUNDS * KEYS || baselineSum !== ROUNDS * KEYS || limiter.size !== KEYS + 1) {
  throw new Error(`benchmark lost its steady state: accepted ${accepted}, size ${limiter.size}`);
}

const nsPerCheck = median(checkNs);
const baselineNsPerOp = median(baselineNs);
const round = (x: number, digits: number): number => Number(x.toFixed(digits));
console.log(
  JSON.stringify({
    keys: KEYS,
    nsPerCheck: round(nsPerCheck, 1),
    baselineNsPerOp: round(baselineNsPerOp, 1),
    ratio: round(nsPerCheck / baselineNsPerOp, 2),
    stateBytes,
    bytesPerKey: round(stateBytes / KEYS, 1),
    sweepMs: round(median(sweepMs), 2),
    rounds: ROUNDS,
  }),
);

/**
 * The heap trim's decision (src/heap-trim.ts), on a resident size the test sets: growth that is this
 * heap's garbage is collected each time it passes the slack; growth a collection cannot free (a solver
 * worker's, issue 26) stops costing the event loop a full collection every time it passes 8 MiB.
 */
import { describe, expect, test } from "bun:test";
import { heapTrimmer } from "../src/heap-trim.ts";

const MiB = 1024 * 1024;

/** A process whose resident size is `garbage` (freed by a collection) plus `held` (not). */
function fakeProcess() {
  const p = { garbage: 0, held: 100 * MiB, collections: 0 };
  const check = heapTrimmer(
    () => p.garbage + p.held,
    () => {
      p.collections++;
      p.garbage = 0;
    },
    8 * MiB,
  );
  return { p, check };
}

describe("heapTrimmer", () => {
  test("collects each time this heap's garbage grows past the slack", () => {
    const { p, check } = fakeProcess();
    for (let i = 0; i < 5; i++) {
      p.garbage += 9 * MiB;
      expect(check()).toBe(true);
    }
    p.garbage += 7 * MiB;
    expect(check()).toBe(false);
    expect(p.collections).toBe(5);
  });

  test("growth a collection cannot free doubles the slack, up to 16 times; a collection that pays resets it", () => {
    const { p, check } = fakeProcess();
    p.held += 9 * MiB;
    expect(check()).toBe(true);
    // The slack is 16 MiB now: 9 more do not collect, 17 do (and the slack becomes 32).
    p.held += 9 * MiB;
    expect(check()).toBe(false);
    p.held += 8 * MiB;
    expect(check()).toBe(true);
    for (const slack of [32, 64, 128, 128]) {
      p.held += (slack - 1) * MiB;
      expect(check()).toBe(false);
      p.held += 2 * MiB;
      expect(check()).toBe(true);
    }
    expect(p.collections).toBe(6);
    // Garbage again: the collection gives back its growth, so the next 9 MiB of garbage are collected.
    p.garbage += 129 * MiB;
    expect(check()).toBe(true);
    p.garbage += 9 * MiB;
    expect(check()).toBe(true);
  });
});

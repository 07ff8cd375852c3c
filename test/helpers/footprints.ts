/**
 * Footprints for the carbon proofs: seeded co2e values on a random formula's candidates, drawn from a
 * few levels so ties occur, with some unknown (null) and a few negative (a credit), as real data has.
 */
import type { Candidate } from "../../src/optimize/model.ts";
import { seeded } from "./random.ts";

const LEVELS = [0, 0.4, 0.55, 1, 4.5];

/**
 * @example withFootprints(randomFormula(3).candidates, 3)[0].co2e // 0.4, a random value, or null
 */
export function withFootprints(candidates: readonly Candidate[], seed: number, unknownShare = 0.08): Candidate[] {
  const rnd = seeded(seed * 7919 + 13);
  return candidates.map((c) => {
    const roll = rnd();
    const co2e = roll < unknownShare ? null : roll < 0.45 ? LEVELS[Math.floor(rnd() * LEVELS.length)]! : roll < 0.5 ? -Math.round(rnd() * 50) / 100 : Math.round(rnd() * 600) / 100;
    return { ...c, co2e };
  });
}

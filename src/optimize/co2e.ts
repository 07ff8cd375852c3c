/**
 * The carbon footprint of a mix (docs/decisions.md#carbon-footprint). An ingredient's `co2e` is kg CO2e
 * per kg as fed; a mix's footprint is kg CO2e per tonne of feed, Σ co2e × x × 10 with x in percent
 * (x/100 of a tonne is 10·x kg). A footprint row is linear in x like a nutrient row, so a cap on it is
 * one more row of the least-cost problem, with its own dual: the cost of allowing 1 kg CO2e per tonne more.
 */
import { KG_PER_TONNE_PER_PERCENT } from "../domain/footprint.ts";
import { round } from "../domain/formula-math.ts";
import { type Candidate, type LeastCostProblem, type Row } from "./model.ts";
import type { ShadowPrice } from "./sensitivity.ts";

export const co2eKnown = (c: Candidate): c is Candidate & { co2e: number } => typeof c.co2e === "number";

/**
 * The footprint row's coefficients: co2e × 10 per candidate (an unknown one counts 0: it is held at 0).
 * @example co2eCoefficients([{ name: "Maize", price: 228, held: false, nutrients: {}, co2e: 0.4 }]) // Float64Array [4]
 */
export function co2eCoefficients(candidates: readonly Candidate[]): Float64Array {
  return Float64Array.from(candidates, (c) => (co2eKnown(c) ? c.co2e * KG_PER_TONNE_PER_PERCENT : 0));
}

/**
 * The candidates with every unknown footprint held at 0: a mix under a cap must be of known footprint.
 * @example holdUnknownCo2e([{ name: "Premix", price: 900, held: false, nutrients: {}, co2e: null }])[0].held // true
 */
export function holdUnknownCo2e(candidates: readonly Candidate[]): Candidate[] {
  return candidates.map((c) => (co2eKnown(c) || c.held ? c : { ...c, held: true }));
}

/** Names of the candidates whose footprint is unknown, in candidate order. */
export function unknownCo2e(candidates: readonly Candidate[]): string[] {
  return candidates.filter((c) => !co2eKnown(c)).map((c) => c.name);
}

/**
 * The problem with a footprint cap (kg CO2e per tonne) as its last row, and unknown footprints held at 0.
 * `max` may be Infinity: the row is then present but never binds (the frontier moves it).
 * @example withCo2eCap(buildProblem(candidates, constraints), 450).rows.at(-1).limit // { kind: "co2e", max: 450 }
 */
export function withCo2eCap(problem: LeastCostProblem, max: number): LeastCostProblem {
  const candidates = holdUnknownCo2e(problem.candidates);
  const row: Row = { limit: { kind: "co2e", max }, coefficients: co2eCoefficients(candidates), lower: -Infinity, upper: max };
  return { candidates, rows: [...problem.rows, row] };
}

/**
 * The cap's shadow price as the answer shows it, when the cap binds: the change of cost per tonne of
 * feed for 1 kg CO2e per tonne more allowed (6 decimals), and the marginal cost of abating one tonne of
 * CO2e, −shadowPrice × 1000, from the unrounded figure (2 decimals).
 * @example co2eShadowShown(sensitivity.shadowPrices) // { limit: 450, shadowPrice: -0.008552, perTonneCo2e: 8.55 }
 */
export function co2eShadowShown(shadowPrices: readonly ShadowPrice[]): { limit: number; shadowPrice: number; perTonneCo2e: number } | undefined {
  const cap = shadowPrices.find((s) => s.limit.kind === "co2e");
  if (!cap) return undefined;
  return { limit: cap.value, shadowPrice: round(cap.shadowPrice, 6), perTonneCo2e: round(-cap.shadowPrice * 1000, 2) };
}

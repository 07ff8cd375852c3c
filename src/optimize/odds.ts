/**
 * The odds of a mix meeting each nutrient limit (docs/decisions.md#optimizing-to-a-confidence-level):
 * the achieved value is normal with mean Σ value × percent / 100 and sd √(Σ (sd × percent)²) / 100,
 * ingredients varying independently; a probability is Φ(margin / sd), or with sd 0 1 when the limit is
 * met and 0 when it is not.
 */
import { round, type FormulaConstraints } from "../domain/formula-math.ts";
import { sdOf, type Sds } from "./chance-model.ts";
import { normalCdf } from "./normal.ts";

export interface Odds {
  mean: number;
  sd: number;
  /** mean − min or max − mean, whichever is closer to binding (null only for a nutrient without limits, which is not listed). */
  margin: number | null;
  probabilityMin: number | null;
  probabilityMax: number | null;
}

type MixRow = { percent: number; name: string; nutrients: Readonly<Record<string, number>> };

/**
 * The odds of every nutrient with a limit, for a mix of percents; figures to 4 decimals.
 * @example oddsOf([{ name: "Maize", percent: 100, nutrients: { CP: 8.5 } }], { nutrients: [{ key: "CP", min: 8, max: null }], ingredients: [], ratios: [] }, { Maize: { CP: 0.6 } }).CP // { mean: 8.5, sd: 0.6, margin: 0.5, probabilityMin: 0.7977, probabilityMax: null }
 */
export function oddsOf(mix: readonly MixRow[], constraints: FormulaConstraints, sds: Sds): Record<string, Odds> {
  const odds: Record<string, Odds> = {};
  for (const { key, min, max } of constraints.nutrients) {
    if (min === null && max === null) continue;
    const { mean, sd } = levelOf(mix, sds, key);
    const probability = (gap: number) => round(sd === 0 ? (gap >= 0 ? 1 : 0) : normalCdf(gap / sd), 4);
    const margins = [min === null ? null : mean - min, max === null ? null : max - mean].filter((m): m is number => m !== null);
    odds[key] = {
      mean: round(mean, 4),
      sd: round(sd, 4),
      margin: margins.length === 0 ? null : round(Math.min(...margins), 4),
      probabilityMin: min === null ? null : probability(mean - min),
      probabilityMax: max === null ? null : probability(max - mean),
    };
  }
  return odds;
}

/**
 * Mean and sd of one nutrient in a mix (unrounded).
 * @example levelOf([{ name: "Maize", percent: 100, nutrients: { CP: 8.5 } }], { Maize: { CP: 0.6 } }, "CP") // { mean: 8.5, sd: 0.6 }
 */
export function levelOf(mix: readonly MixRow[], sds: Sds, key: string): { mean: number; sd: number } {
  let mean = 0;
  let variance = 0;
  for (const row of mix) {
    const value = Object.hasOwn(row.nutrients, key) ? row.nutrients[key]! : 0;
    mean += (value * row.percent) / 100;
    variance += ((sdOf(sds, row.name, row.nutrients, key) * row.percent) / 100) ** 2;
  }
  return { mean, sd: Math.sqrt(variance) };
}

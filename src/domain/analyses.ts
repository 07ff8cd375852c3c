/**
 * The mill's lab analyses of an ingredient and what they say about it, the same whichever database
 * holds them: per nutrient key the count, mean, sample sd, range and the ingredient's own (book) value,
 * and the sds the optimizer formulates with (docs/analyses.md).
 */
import { ValidationError } from "./errors.ts";
import type { NewEvent } from "./events.ts";
import { round } from "./formula-math.ts";
import type { Actor } from "./ingredient-events.ts";

/** What an analysis records; `sampledAt` is ISO 8601 UTC with milliseconds. */
export interface AnalysisInput {
  nutrients: Record<string, number>;
  sampledAt: string;
  lot: string | null;
  lab: string | null;
}

/** One stored analysis, as the API shows it. */
export interface Analysis extends AnalysisInput {
  id: string;
  name: string;
  createdAt: string;
}

/** One key's figures over the analyses carrying it (4 decimals). */
export interface NutrientStats {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1); null below 2 analyses. */
  sd: number | null;
  min: number;
  max: number;
  /** The ingredient's own value of the key; null when it has none. */
  book: number | null;
}

/** Fewest analyses in the window whose sd the optimizer uses; below it the key counts as fixed (sd 0). */
export const MIN_ANALYSES_FOR_SD = 3;

/** Every value of each key, in the order the analyses come, keys in order of first appearance. */
function valuesByKey(analyses: readonly { nutrients: Record<string, number> }[]): Map<string, number[]> {
  const byKey = new Map<string, number[]>();
  for (const { nutrients } of analyses) {
    for (const [key, value] of Object.entries(nutrients)) {
      const values = byKey.get(key);
      if (values) values.push(value);
      else byKey.set(key, [value]);
    }
  }
  return byKey;
}

const mean = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0) / values.length;

/**
 * The sample standard deviation (divisor n − 1), two passes so large means lose no precision; null below 2 values.
 * @example sampleSd([44, 46, 48]) // 2
 */
export function sampleSd(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const m = mean(values);
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1));
}

/**
 * The figures of each key the analyses carry: the ingredient's own keys first in its order, then the others as first met.
 * @example analysisStats([{ nutrients: { CP: 44 } }, { nutrients: { CP: 46 } }], { CP: 45 }) // { CP: { n: 2, mean: 45, sd: 1.4142, min: 44, max: 46, book: 45 } }
 */
export function analysisStats(analyses: readonly { nutrients: Record<string, number> }[], book: Record<string, number>): Record<string, NutrientStats> {
  const byKey = valuesByKey(analyses);
  const keys = [...Object.keys(book).filter((k) => byKey.has(k)), ...[...byKey.keys()].filter((k) => !(k in book))];
  const out: Record<string, NutrientStats> = {};
  for (const key of keys) {
    const values = byKey.get(key)!;
    const sd = sampleSd(values);
    out[key] = {
      n: values.length,
      mean: round(mean(values), 4),
      sd: sd === null ? null : round(sd, 4),
      min: round(Math.min(...values), 4),
      max: round(Math.max(...values), 4),
      book: key in book ? book[key]! : null,
    };
  }
  return out;
}

/**
 * The sds the optimizer uses for one ingredient: each key its book values have and at least
 * MIN_ANALYSES_FOR_SD analyses carry, unrounded; every other key is fixed (absent here, sd 0).
 * @example keySds([{ nutrients: { CP: 44 } }, { nutrients: { CP: 46 } }, { nutrients: { CP: 48, X: 1 } }], { CP: 46 }) // { CP: 2 }
 */
export function keySds(analyses: readonly { nutrients: Record<string, number> }[], book: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, values] of valuesByKey(analyses)) {
    if (key in book && values.length >= MIN_ANALYSES_FOR_SD) out[key] = sampleSd(values)!;
  }
  return out;
}

/**
 * An analysis as stored from what was sent: `sampledAt` absent means `now`; one after `now` is refused
 * (a clock or a typo, never a sample). Both ISO 8601 UTC with milliseconds.
 * @example analysisInput({ nutrients: { CP: 46.8 } }, "2026-11-21T14:03:07.123Z").sampledAt // "2026-11-21T14:03:07.123Z"
 */
export function analysisInput(sent: { nutrients: Record<string, number>; sampledAt?: string | undefined; lot?: string | null | undefined; lab?: string | null | undefined }, now: string): AnalysisInput {
  const sampledAt = sent.sampledAt ?? now;
  if (sampledAt > now) throw new ValidationError("sampledAt must not be in the future");
  return { nutrients: sent.nutrients, sampledAt, lot: sent.lot ?? null, lab: sent.lab ?? null };
}

/**
 * The opt-in `analysis.added`, ordered per webhook with the ingredient's other events.
 * @example analysisAddedEvent(actor, added).payload // { id, name, nutrients, sampledAt, timestamp }
 */
export function analysisAddedEvent(actor: Actor, added: Analysis): NewEvent {
  return {
    workspaceId: actor.workspaceId,
    type: "analysis.added",
    ingredient: added.name,
    payload: { id: added.id, name: added.name, nutrients: added.nutrients, sampledAt: added.sampledAt, timestamp: actor.now },
    keyId: actor.keyId,
    now: actor.now,
  };
}

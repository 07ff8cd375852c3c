/**
 * The range of a price sweep as the API and the CLI take it (docs/decisions.md#price-sweeps), checked in
 * the order the messages name them.
 */
import { ValidationError } from "../domain/errors.ts";

export interface SweepRange {
  ingredient: string;
  from: number;
  to: number;
  points: number;
}

const NUMBER = /^\s*(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
export const MAX_SWEPT_PRICE = 1e9;

/**
 * @example sweepRange({ ingredient: "Maize", from: "150", to: "300" }) // { ingredient: "Maize", from: 150, to: 300, points: 51 }
 */
export function sweepRange(q: { ingredient?: string | undefined; from?: string | undefined; to?: string | undefined; points?: string | undefined }): SweepRange {
  if (q.ingredient === undefined || q.ingredient === "") throw new ValidationError("ingredient is required");
  const number = (name: string, raw: string | undefined, rule: string) => {
    if (raw === undefined || raw === "") throw new ValidationError(`${name} is required`);
    const v = Number(raw);
    if (!NUMBER.test(raw) || !Number.isFinite(v)) throw new ValidationError(`${name} must be ${rule}`);
    return v;
  };
  const from = number("from", q.from, "a number >= 0");
  const to = number("to", q.to, `a number <= ${MAX_SWEPT_PRICE}`);
  if (to > MAX_SWEPT_PRICE) throw new ValidationError(`to must be a number <= ${MAX_SWEPT_PRICE}`);
  if (!(from < to)) throw new ValidationError("from must be less than to");
  let points = 51;
  if (q.points !== undefined) {
    points = Number(q.points);
    if (!/^\d{1,3}$/.test(q.points) || points < 2 || points > 201) throw new ValidationError("points must be an integer from 2 to 201");
  }
  return { ingredient: q.ingredient, from, to, points };
}

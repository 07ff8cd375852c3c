/**
 * The scales of a batch sheet as the API and the CLI take them (docs/decisions.md#batch-sheets), checked
 * in the order the messages name them; amounts are whole grams, so every figure has at most 3 decimals.
 */
import { ValidationError } from "../domain/errors.ts";
import { atScale } from "./decimal-ops.ts";
import { decimalOf } from "./exact.ts";

export interface BatchScales {
  size: number;
  resolution: number;
  micro: { resolution: number; below: number } | null;
}

const DECIMAL = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/;
const grams = (x: number) => decimalOf(x).scale <= 3;

function numberOf(name: string, raw: string | undefined, rule: string): number {
  if (raw === undefined || raw === "") throw new ValidationError(`${name} is required`);
  if (!DECIMAL.test(raw)) throw new ValidationError(`${name} must be ${rule}`);
  return Number(raw);
}

/**
 * @example batchScales({ size: "2000", resolution: "0.5", microResolution: "0.001", microBelow: "20" }) // { size: 2000, resolution: 0.5, micro: { resolution: 0.001, below: 20 } }
 */
export function batchScales(q: { size?: string | undefined; resolution?: string | undefined; microResolution?: string | undefined; microBelow?: string | undefined }): BatchScales {
  const sizeRule = "a number from 1 to 100000 with at most 3 decimals";
  const size = numberOf("size", q.size, sizeRule);
  if (size < 1 || size > 1e5 || !grams(size)) throw new ValidationError(`size must be ${sizeRule}`);
  const stepRule = "a number from 0.001 to size with at most 3 decimals";
  const step = (name: string, raw: string | undefined) => {
    const v = numberOf(name, raw, stepRule);
    if (v < 0.001 || v > size || !grams(v)) throw new ValidationError(`${name} must be ${stepRule}`);
    return v;
  };
  const resolution = step("resolution", q.resolution);
  if (atScale(decimalOf(size), 3) % atScale(decimalOf(resolution), 3) !== 0n) throw new ValidationError("size must be a whole multiple of resolution");
  if ((q.microResolution === undefined) !== (q.microBelow === undefined)) throw new ValidationError("microResolution and microBelow go together");
  if (q.microResolution === undefined) return { size, resolution, micro: null };
  const microResolution = step("microResolution", q.microResolution);
  const below = numberOf("microBelow", q.microBelow, "a number > 0");
  if (!(below > 0) || !Number.isFinite(below)) throw new ValidationError("microBelow must be a number > 0");
  return { size, resolution, micro: { resolution: microResolution, below } };
}

/**
 * Nutrient names and units from GET /v1/nutrients, so every value the console shows carries its unit.
 * A key the workspace has not defined shows "unit not set" rather than a guess.
 */
import type { Resource } from "./resource.ts";
import { useResource } from "./resource.ts";
import type { Envelope, Nutrient } from "./types.ts";

export interface Units {
  /** The unit of a key, or null when not defined. */
  unit(key: string): string | null;
  /** The display name of a key (the key itself when not defined). */
  name(key: string): string;
  /** The definitions could not be read (an older server without the route). */
  missing: boolean;
}

export function unitsFrom(res: Resource<Envelope<Nutrient[]>>): Units {
  const byKey = new Map((res.state === "ready" ? res.data.data : []).map((n) => [n.key, n]));
  return {
    unit: (key) => byKey.get(key)?.unit ?? null,
    name: (key) => byKey.get(key)?.name ?? key,
    missing: res.state === "error",
  };
}

/** @example const units = useUnits(); units.unit("CP") // "%" */
export function useUnits(): Units {
  return unitsFrom(useResource<Envelope<Nutrient[]>>("/v1/nutrients"));
}

/** The unit to print beside a nutrient value. */
export const unitLabel = (units: Units, key: string): string => units.unit(key) ?? "unit not set";

/**
 * The unit of a limit as the API names it: a nutrient by `key`, an ingredient's inclusion by `name` (%),
 * a ratio by `numerator` (none: a ratio has no unit), a footprint (`kind: "co2e"`), a plan's supply (t).
 * @example limitUnit(units, { key: "CP" }) // "%"
 */
export function limitUnit(units: Units, l: { kind?: string | undefined; key?: string | undefined; numerator?: string | undefined }): string {
  if (l.kind === "supply") return "t";
  if (l.kind === "co2e") return "kg CO2e/t";
  if (l.numerator !== undefined) return "";
  if (l.key !== undefined) return unitLabel(units, l.key);
  return "%";
}

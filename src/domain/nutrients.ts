/**
 * Nutrient definitions: what a key means, its unit and the basis its values are given on, per
 * workspace. A workspace starts with the standard keys defined (DEFAULT_NUTRIENTS); keys that
 * ingredients use without a definition are listed with nulls, so a table never shows a value whose
 * unit nobody stated as if it had one.
 */
export const BASES = ["as-fed", "dry-matter"] as const;
export type Basis = (typeof BASES)[number];

export interface NutrientDefinition {
  key: string;
  name: string;
  unit: string;
  basis: Basis;
}

/** A key as GET /v1/nutrients lists it: defined, or used by an ingredient and not defined (nulls). */
export type NutrientListing = NutrientDefinition | { key: string; name: null; unit: null; basis: null };

const define = (basis: Basis, unit: string, entries: [key: string, name: string][]): NutrientDefinition[] => entries.map(([key, name]) => ({ key, name, unit, basis }));

/**
 * The standard keys every new workspace starts with (the project's feed-domain reference): energy per
 * kg and everything else in % of the feed as fed, except the ruminant keys, which are on dry matter.
 */
export const DEFAULT_NUTRIENTS: readonly NutrientDefinition[] = [
  ...define("as-fed", "%", [["DM", "Dry matter"]]),
  ...define("as-fed", "kcal/kg", [
    ["ME_poultry", "Metabolisable energy, poultry (AMEn)"],
    ["ME_swine", "Metabolisable energy, swine"],
    ["NE_swine", "Net energy, swine"],
  ]),
  ...define("as-fed", "%", [
    ["CP", "Crude protein"],
    ["CF", "Crude fibre"],
    ["EE", "Ether extract (crude fat)"],
    ["Ca", "Calcium"],
    ["avP", "Available (non-phytate) phosphorus"],
    ["STTD_P", "Standardised total tract digestible phosphorus, swine"],
    ["Na", "Sodium"],
    ["Cl", "Chloride"],
    ["Lys", "Lysine (total)"],
    ["Met", "Methionine (total)"],
    ["MetCys", "Methionine + cystine (total)"],
    ["Thr", "Threonine (total)"],
    ["Trp", "Tryptophan (total)"],
    ["dLys", "Digestible lysine (SID)"],
    ["dMet", "Digestible methionine (SID)"],
    ["dMetCys", "Digestible methionine + cystine (SID)"],
    ["dThr", "Digestible threonine (SID)"],
    ["dTrp", "Digestible tryptophan (SID)"],
  ]),
  ...define("dry-matter", "Mcal/kg", [["NEL", "Net energy for lactation"]]),
  ...define("dry-matter", "%", [
    ["NDF", "Neutral detergent fibre"],
    ["starch", "Starch"],
    ["RUP", "Rumen-undegradable protein (% of CP)"],
  ]),
];

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The definitions, and the keys used without one (with nulls), by key in byte order.
 * @example nutrientListing([{ key: "CP", name: "Crude protein", unit: "%", basis: "as-fed" }], ["CP", "Zn"]) // [CP's definition, { key: "Zn", name: null, unit: null, basis: null }]
 */
export function nutrientListing(defined: readonly NutrientDefinition[], used: readonly string[]): NutrientListing[] {
  const keys = new Set(defined.map((d) => d.key));
  const undefinedKeys = used.filter((key) => !keys.has(key)).map((key) => ({ key, name: null, unit: null, basis: null }));
  return [...defined, ...undefinedKeys].sort((a, b) => byBytes(a.key, b.key));
}

/**
 * A value with its unit, as every CLI table prints it ("8.5 %", "3350 kcal/kg"); a key without a
 * definition shows its bare value.
 * @example withUnit(8.5, "%") // "8.5 %"
 */
export const withUnit = (value: number | string, unit: string | null | undefined): string => (unit ? `${value} ${unit}` : String(value));

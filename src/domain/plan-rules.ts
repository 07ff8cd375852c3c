/**
 * The rules a production plan's body must meet (docs/decisions.md#production-plans), checked by hand so
 * that each answer names its field as people write it (`lines[2].tons must be a number > 0`), the first
 * problem only; then the references (formulas and ingredients the workspace holds), one at a time.
 */
import { ValidationError } from "./errors.ts";

export interface PlanBodyIn {
  name: string;
  lines: { formula: string; tons: number }[];
  supply: { name: string; minTons: number | null; maxTons: number | null }[];
}

const TONS_MAX = 1e7;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const fail = (message: string): never => {
  throw new ValidationError(message);
};
function onlyKeys(v: Record<string, unknown>, allowed: readonly string[], at: string): void {
  const extra = Object.keys(v).find((k) => !allowed.includes(k));
  if (extra !== undefined) fail(`Unknown field: ${at}${extra}`);
}
const tonsOrNull = (v: unknown, field: string): number | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > TONS_MAX) return fail(`${field} must be a number >= 0 and <= 10000000, or null`);
  return v;
};

/**
 * The body's shape; `extra` names fields allowed beside it (`id` in an import file).
 * @example parsePlanBody({ name: "December", lines: [{ formula: "broiler-starter", tons: 1200 }] }) // { name, lines, supply: [] }
 */
export function parsePlanBody(input: unknown, extra: readonly string[] = []): PlanBodyIn {
  if (!isObject(input)) return fail("The body must be a JSON object");
  onlyKeys(input, ["name", "lines", "supply", ...extra], "");
  if (typeof input.name !== "string" || input.name.trim() === "") fail(input.name === undefined ? "name is required" : "name must be a non-empty string");
  if (!Array.isArray(input.lines) || input.lines.length < 1 || input.lines.length > 500) fail("lines must have 1 to 500 entries");
  const lines = (input.lines as unknown[]).map((line, i) => {
    if (!isObject(line)) return fail(`lines[${i}] must be an object`);
    onlyKeys(line, ["formula", "tons"], `lines[${i}].`);
    if (typeof line.formula !== "string" || line.formula === "") fail(`lines[${i}].formula must be a formula id`);
    if (typeof line.tons !== "number" || !Number.isFinite(line.tons) || line.tons <= 0) fail(`lines[${i}].tons must be a number > 0`);
    if ((line.tons as number) > TONS_MAX) fail(`lines[${i}].tons must be a number <= 10000000`);
    return { formula: line.formula as string, tons: line.tons as number };
  });
  const rawSupply = input.supply ?? [];
  if (!Array.isArray(rawSupply)) fail("supply must be an array");
  if ((rawSupply as unknown[]).length > 2000) fail("supply must have at most 2000 entries");
  const supply = (rawSupply as unknown[]).map((s, i) => {
    if (!isObject(s)) return fail(`supply[${i}] must be an object`);
    onlyKeys(s, ["name", "minTons", "maxTons"], `supply[${i}].`);
    if (typeof s.name !== "string" || s.name === "") fail(`supply[${i}].name must be an ingredient name`);
    const minTons = tonsOrNull(s.minTons, `supply[${i}].minTons`);
    const maxTons = tonsOrNull(s.maxTons, `supply[${i}].maxTons`);
    if (minTons === null && maxTons === null) fail(`supply[${i}] needs minTons or maxTons`);
    if (minTons !== null && maxTons !== null && minTons > maxTons) fail(`supply[${i}].minTons must not exceed maxTons`);
    return { name: s.name as string, minTons, maxTons };
  });
  return { name: (input.name as string).trim(), lines, supply };
}

/**
 * Each formula and ingredient named once and held by the workspace.
 * @example await checkPlanReferences(body, (id) => store.formulaExists(ws, id), async (n) => (await store.findIngredient(ws, n)) !== null)
 */
export async function checkPlanReferences(body: PlanBodyIn, formulaExists: (id: string) => boolean | Promise<boolean>, ingredientExists: (name: string) => boolean | Promise<boolean>): Promise<void> {
  const formulas = new Set<string>();
  for (const line of body.lines) {
    if (formulas.has(line.formula)) fail(`Duplicate formula: ${line.formula}`);
    formulas.add(line.formula);
    if (!(await formulaExists(line.formula))) fail(`Unknown formula: ${line.formula}`);
  }
  const names = new Set<string>();
  for (const s of body.supply) {
    if (names.has(s.name)) fail(`Duplicate ingredient: ${s.name}`);
    names.add(s.name);
    if (!(await ingredientExists(s.name))) fail(`Unknown ingredient: ${s.name}`);
  }
}

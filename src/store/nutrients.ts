/**
 * Nutrient definitions per workspace (table `nutrients`): the reads GET /v1/nutrients needs, the one
 * write PUT /v1/nutrients/:key and `feedbase nutrient set` make, and the seed of a new workspace. Each
 * written once over the statements of src/store/sqlite/nutrients.ts and src/store/pg/nutrients.ts.
 */
import { DEFAULT_NUTRIENTS, nutrientListing, type NutrientDefinition } from "../domain/nutrients.ts";
import { nutrientNotFound, type NutrientInput, type NutrientStatements } from "./nutrient-rules.ts";
import { all, operation, statements, tx } from "./op.ts";
import { pgNutrients } from "./pg/nutrients.ts";
import { sqliteNutrients } from "./sqlite/nutrients.ts";

const q = statements<NutrientStatements>(sqliteNutrients, pgNutrients);

/** @example listNutrients(db, 1) // [{ key: "Ca", name: "Calcium", unit: "%", basis: "as-fed" }, …, { key: "Zn", name: null, unit: null, basis: null }] */
export const listNutrients = operation(function* (workspaceId: number) {
  const [defined, used] = yield* all(q.definitions(workspaceId), q.usedKeys(workspaceId));
  return nutrientListing(defined, used);
});

/** One key as the list shows it; throws NotFoundError when neither defined nor used. @example requireNutrient(db, 1, "CP").unit // "%" */
export const requireNutrient = operation(function* (workspaceId: number, key: string) {
  const defined = yield* q.definition(workspaceId, key);
  if (defined) return defined;
  if (yield* q.isUsed(workspaceId, key)) return { key, name: null, unit: null, basis: null };
  throw nutrientNotFound(key);
});

/**
 * Define a key, or replace its definition; inside the caller's transaction.
 * @example putNutrient(db, 1, "CP", { name: "Crude protein", unit: "%", basis: "as-fed" }) // { created: false, definition }
 */
export const putNutrient = operation(function* (workspaceId: number, key: string, input: NutrientInput) {
  yield* tx.requireTransaction("putNutrient");
  const created = yield* q.upsertDefinition(workspaceId, key, input);
  return { created, definition: { key, ...input } as NutrientDefinition };
});

/** The standard definitions for a new workspace (src/domain/nutrients.ts); inside its transaction. @example seedNutrients(db, 2) */
export const seedNutrients = operation(function* (workspaceId: number) {
  yield* all(...DEFAULT_NUTRIENTS.map((d) => q.insertDefault(workspaceId, d)));
});

/**
 * Put every row of a checked nutrient file, inside the caller's transaction (all or nothing).
 * @example transaction(db, () => writeNutrientImport(db, 1, rows)) // { added: 2, replaced: 23 }
 */
export const writeNutrientImport = operation(function* (workspaceId: number, rows: readonly NutrientDefinition[]) {
  let added = 0;
  for (const { key, ...input } of rows) if ((yield* putNutrient.steps(workspaceId, key, input)).created) added++;
  return { added, replaced: rows.length - added };
});

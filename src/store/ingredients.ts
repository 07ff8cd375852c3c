/** Ingredient reads: each written once over the statements of src/store/sqlite/ingredients.ts and src/store/pg/ingredients.ts. */
import { filterValues, orNotFound, stockFlags, toDetail, type IngredientFilters, type IngredientListItem, type IngredientStatements, type PriceEntry } from "./ingredient-rows.ts";
import { operation, statements } from "./op.ts";
import { pgIngredients } from "./pg/ingredients.ts";
import { sqliteIngredients } from "./sqlite/ingredients.ts";

export type { IngredientDetail, IngredientFilters, IngredientListItem, PriceEntry } from "./ingredient-rows.ts";

const q = statements<IngredientStatements>(sqliteIngredients, pgIngredients);

/** @example listIngredients(db, 1, { category: "Cereals" }) */
export const listIngredients = operation(function* (workspaceId: number, filters: IngredientFilters = {}) {
  return stockFlags<IngredientListItem>(yield* q.listItems(workspaceId, ...filterValues(filters)));
});

/** @example listPrices(db, 1) // [{ name, price, inStock, category }] */
export const listPrices = operation(function* (workspaceId: number, filters: IngredientFilters = {}) {
  return stockFlags<PriceEntry>(yield* q.prices(workspaceId, ...filterValues(filters)));
});

/** Every category of the workspace, whatever the filters. @example listPools(db, 1) // ["Cereals", "Minerals"] */
export const listPools = operation(function* (workspaceId: number) {
  return yield* q.categories(workspaceId);
});

/** One ingredient's row as a step, for operations that send several together (`all`). */
export const ingredientRow = (workspaceId: number, name: string) => q.detail(workspaceId, name);

function* find(workspaceId: number, name: string) {
  const row = yield* q.detail(workspaceId, name);
  return row ? toDetail(row) : null;
}

/** @example findIngredient(db, 1, "Soybean meal 48%") // IngredientDetail | null */
export const findIngredient = operation(find);

/**
 * Those of `names` the workspace holds, by name, in one query (a solve's candidates: 60 lookups were
 * 60 statements on the event loop).
 * @example findIngredients(db, 1, ["Maize", "Nope"]).get("Maize")?.price // 180
 */
export const findIngredients = operation(function* (workspaceId: number, names: string[]) {
  return new Map((yield* q.named(workspaceId, names)).map((row) => [row.name, toDetail(row)]));
});

/** @example requireIngredient(db, 1, "Maize") // throws NotFoundError("Ingredient not found: Maize") */
export const requireIngredient = operation(function* (workspaceId: number, name: string) {
  return orNotFound(yield* find(workspaceId, name), name);
});

/** Every ingredient in full, in list order (the export). @example listIngredientDetails(db, 1)[0].nutrients */
export const listIngredientDetails = operation(function* (workspaceId: number) {
  return (yield* q.details(workspaceId)).map(toDetail);
});

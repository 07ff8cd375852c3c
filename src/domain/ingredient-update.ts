/**
 * What `import ingredients --update` stores for a row whose name the workspace holds: the stored
 * ingredient with the fields the row names, and nothing else (a purchasing file `name,price` must not
 * empty the nutrients). The same on both backends.
 */
import type { Given, IngredientRow } from "./ingredient-file.ts";

export interface StoredFields {
  category: string;
  price: number;
  inStock: boolean;
  nutrients: Record<string, number>;
}

/**
 * The stored fields after the row: each field the row gives replaces the stored one; a nutrient
 * column given with an empty cell removes that nutrient; other nutrients keep their values and order,
 * new ones follow them.
 * @example updatedFields({ category: "Cereals", price: 228, inStock: true, nutrients: { CP: 8.5 } }, priceOnlyRow) // { category: "Cereals", price: 231, inStock: true, nutrients: { CP: 8.5 } }
 */
export function updatedFields(stored: StoredFields, row: Pick<IngredientRow, "input" | "given">): StoredFields {
  const { input, given } = row;
  return {
    category: given.category ? input.category : stored.category,
    price: given.price ? input.price : stored.price,
    inStock: given.inStock ? input.inStock : stored.inStock,
    nutrients: updatedNutrients(stored.nutrients, input.nutrients, given.nutrients),
  };
}

function updatedNutrients(stored: Record<string, number>, row: Record<string, number>, given: Given["nutrients"]): Record<string, number> {
  if (given === "all") return row;
  if (given.length === 0) return stored;
  const columns = new Set(given);
  // Entries, not assignment: a key may be "__proto__".
  const kept = Object.entries(stored).filter(([key]) => !columns.has(key) || Object.hasOwn(row, key));
  const result = new Map(kept.map(([key, value]) => [key, Object.hasOwn(row, key) ? row[key]! : value]));
  for (const key of given) if (Object.hasOwn(row, key)) result.set(key, row[key]!);
  return Object.fromEntries(result);
}

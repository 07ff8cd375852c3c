/** The shapes of the /v1 answers the console reads (the API's OpenAPI document has them all). */
export interface Envelope<T> {
  status: "ok";
  data: T;
  count?: number;
  pools?: string[];
  timestamp?: string;
}
export interface Price {
  name: string;
  price: number;
  inStock: boolean;
  category: string;
}
export interface HistoryEntry {
  price: number;
  inStock: boolean;
  at: string;
  source: string;
}
export interface PriceHistoryReport extends Envelope<{ name: string; history: HistoryEntry[] }[]> {
  from: string;
  to: string | null;
}
export interface IngredientDetail {
  name: string;
  category: string;
  price: number;
  inStock: boolean;
  nutrients: Record<string, number>;
  createdAt: string;
  updatedAt: string;
}
export interface Nutrient {
  key: string;
  name: string | null;
  unit: string | null;
  basis: string | null;
}
export interface FormulaListItem {
  id: string;
  name: string;
  species: string;
  subcategory: string;
  batchSize: number;
  totalCost: number;
  createdAt: string;
}
export interface Bound {
  min: number | null;
  max: number | null;
}
export interface Constraints {
  nutrients: (Bound & { key: string })[];
  ingredients: (Bound & { name: string })[];
  ratios: (Bound & { numerator: string; denominator: string })[];
}
export interface FormulaDetail extends FormulaListItem {
  ingredients: { name: string; percent: number; amount: number; price: number; cost: number }[];
  nutrients: Record<string, number>;
  constraints: Constraints;
  warnings?: string[];
}
export interface FormulaCost {
  id: string;
  batchSize: number;
  totalCost: number;
  at: string;
  cost: number;
  change: number;
  changePercent: number | null;
  costPerTon?: number;
  ingredients: { name: string; percent: number; amount: number; savedPrice: number; price: number; cost: number; change: number }[];
}
export interface Saving {
  perBatch: number;
  perTon: number;
  percent: number;
}
export interface SavingsRow {
  id: string;
  name: string;
  species: string;
  subcategory: string;
  status: string;
  cost: number;
  optimizedCost: number | null;
  saving: Saving | null;
  savedMeetsLimits?: boolean;
  violations?: string[];
}
export interface CostChange {
  id: string;
  name: string;
  species: string;
  subcategory: string;
  batchSize: number;
  costThen: number;
  costNow: number;
  change: number;
  changePercent: number | null;
  costPerTon?: number;
  changePerTon?: number;
  drivers: { name: string; priceThen: number; priceNow: number; change: number }[];
}
export interface ShadowPrice {
  bound: "min" | "max";
  limit: number;
  shadowPrice: number;
  validFrom: number | null;
  validTo: number | null;
  key?: string;
  name?: string;
  numerator?: string;
  denominator?: string;
}
export interface Optimization {
  id: string;
  name: string;
  batchSize: number;
  status: "optimal" | "infeasible";
  current: { cost: number; costPerTon?: number; ingredients: { name: string; percent: number; price: number; cost: number }[] };
  optimized?: { cost: number; costPerTon: number; ingredients: { name: string; percent: number; amount: number; price: number; cost: number }[]; nutrients: Record<string, number> };
  saving?: Saving;
  shadowPrices?: { nutrients: ShadowPrice[]; ingredients: ShadowPrice[]; ratios: ShadowPrice[] };
  ranging?: { name: string; percent: number; price: number; priceLow: number | null; priceHigh: number | null }[];
  excluded?: { name: string; price: number; entersBelow: number | null }[];
  conflicts?: { kind?: string; key?: string; name?: string; bound?: string; limit?: number; bestAchievable?: number; alone?: boolean }[];
  message?: string;
}
export interface EventItem {
  id: number;
  type: string;
  createdAt: string;
  payload: Record<string, unknown>;
}
export interface PlanSummary {
  id: string;
  name: string;
  totalTons: number;
  formulas: number;
  createdAt: string;
  updatedAt: string;
}
export interface Plan {
  id: string;
  name: string;
  lines: { formula: string; tons: number }[];
  supply: { name: string; minTons: number | null; maxTons: number | null }[];
  createdAt: string;
  updatedAt: string;
}
export interface PlanUsage {
  name: string;
  tons: number;
  minTons: number | null;
  maxTons: number | null;
  bound: "min" | "max" | null;
  shadowPrice: number | null;
}
export interface PlanResult {
  id: string;
  name: string;
  status: "optimal" | "infeasible";
  totalTons: number;
  cost: number | null;
  independentCost: number | null;
  sharingCost: number | null;
  formulas: { id: string; name: string; tons: number; costPerTon: number | null; independentCostPerTon: number | null; ingredients: { name: string; percent: number; tons: number }[] }[];
  usage: PlanUsage[];
  conflicts: { kind: string; formula?: string; key?: string; name?: string; numerator?: string; denominator?: string; bound: "min" | "max"; limit: number; bestAchievable: number | null; alone?: boolean }[];
}

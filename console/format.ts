/**
 * Numbers as the API rounds them, each printed with its unit beside it. The API names no currency, so
 * neither does the console: "/t" is per tonne.
 */
const cache = new Map<string, Intl.NumberFormat>();
function fmt(min: number, max: number, sign = false): Intl.NumberFormat {
  const id = `${min}/${max}/${sign}`;
  let f = cache.get(id);
  if (!f) cache.set(id, (f = new Intl.NumberFormat("en-US", { minimumFractionDigits: min, maximumFractionDigits: max, ...(sign ? { signDisplay: "exceptZero" } : {}) })));
  return f;
}

/*
 * One formatter per kind of number, each with a fixed number of decimals (the API's rounding), so a
 * column never mixes "1,118" with "1,117.6" and the figures shown add up as the API's do. Every page
 * formats through these; no page picks its own decimals.
 */

/** Money (a price, a cost, what a tonne is worth): 2 decimals, thousands grouped, a true minus. @example money(1234.5) // "1,234.50" */
export const money = (n: number): string => fmt(2, 2).format(n).replace("-", "−");
/** Per tonne from per batch (the API's formula costs are per batch of batchSize kg), at 2 decimals. @example perTon(746.53, 2000) // 373.27 */
export const perTon = (cost: number, batchSize: number): number => Math.round((cost / batchSize) * 100000) / 100;
/** A change of money: 2 decimals, always signed. @example change(-3.6) // "−3.60" */
export const change = (n: number): string => fmt(2, 2, true).format(n).replace("-", "−");
/** A share of a mix or a batch, in %: 4 decimals (a mix's shares add up to 100.0000). @example share(5) // "5.0000" */
export const share = (n: number): string => fmt(4, 4).format(n);
/** A change of a share, in percentage points: 4 decimals, always signed. @example shareChange(-0.25) // "−0.2500" */
export const shareChange = (n: number): string => fmt(4, 4, true).format(n).replace("-", "−");
/** Kilograms of a batch: 3 decimals (a gram). @example kg(12.5) // "12.500" */
export const kg = (n: number): string => fmt(3, 3).format(n);
/** A difference of kilograms: 3 decimals, always signed. @example kgChange(-0.4) // "−0.400" */
export const kgChange = (n: number): string => fmt(3, 3, true).format(n).replace("-", "−");
/** Tonnes of a period's plan: 1 decimal (100 kg: finer than any delivery). @example tonnes(2500) // "2,500.0" */
export const tonnes = (n: number): string => fmt(1, 1).format(n);
/** A footprint, kg CO2e per tonne: 1 decimal. @example co2e(1118) // "1,118.0" */
export const co2e = (n: number): string => fmt(1, 1).format(n);
/** A formula's shadow price (cost per tonne per unit of a limit): 4 decimals. @example shadow(-0.5) // "−0.5000" */
export const shadow = (n: number): string => fmt(4, 4).format(n).replace("-", "−");
/** A probability (the API's, 4 decimals) in %: 2 decimals. @example odds(0.95) // "95.00" */
export const odds = (p: number): string => fmt(2, 2).format(p * 100);
/** A whole count (requests, formulas, kg of a batch size). @example count(2000) // "2,000" */
export const count = (n: number): string => fmt(0, 0).format(n);
/**
 * A measured value (a nutrient, a limit, a ratio): up to 4 decimals as the API gives them, trailing
 * zeros dropped. Each row of such a column has its own unit (kcal/kg beside %), so one fixed number of
 * decimals would either hide a digit of a percent or add four zeros to an energy.
 * @example value(60.347) // "60.347"
 */
export const value = (n: number): string => fmt(0, 4).format(n);
/** A signed percent change at 2 decimals. @example pct(1.27) // "+1.27 %" */
export const pct = (n: number | null): string => (n === null ? "—" : `${fmt(2, 2, true).format(n).replace("-", "−")} %`);

const dateFmt = new Intl.DateTimeFormat("en-GB", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const timeFmt = new Intl.DateTimeFormat("en-GB", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC", hour12: false });
/** A day, UTC (as the API stores instants). @example day("2026-01-08T07:45:00.000Z") // "8 Jan 2026" */
export const day = (iso: string): string => dateFmt.format(new Date(iso));
/** A day and time, UTC. */
export const instant = (iso: string): string => `${timeFmt.format(new Date(iso))} UTC`;
const shortDayFmt = new Intl.DateTimeFormat("en-GB", { month: "short", day: "numeric", timeZone: "UTC" });
/** A chart's day tick, UTC, as the console writes days elsewhere. @example shortDay(Date.parse("2026-06-05")) // "5 Jun" */
export const shortDay = (ms: number): string => shortDayFmt.format(new Date(ms));
/** YYYY-MM-DD of an instant, UTC. */
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Per tonne unit label, beside every price and cost per tonne. */
export const PER_T = "/t";
/** The unit of tonnages. */
export const T = "t";

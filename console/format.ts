/**
 * Numbers as the API rounds them, each with its unit: money per tonne at 2 decimals, percents at up to
 * 4, shadow prices at 4. The API names no currency, so neither does the console: "/t" is per tonne.
 */
const cache = new Map<string, Intl.NumberFormat>();
function fmt(min: number, max: number, sign = false): Intl.NumberFormat {
  const id = `${min}/${max}/${sign}`;
  let f = cache.get(id);
  if (!f) cache.set(id, (f = new Intl.NumberFormat("en-US", { minimumFractionDigits: min, maximumFractionDigits: max, ...(sign ? { signDisplay: "exceptZero" } : {}) })));
  return f;
}

/** 2 decimals, thousands grouped. @example money(1234.5) // "1,234.50" */
export const money = (n: number): string => fmt(2, 2).format(n);
/** A change of money: always signed. @example change(-3.6) // "−3.60" */
export const change = (n: number): string => fmt(2, 2, true).format(n).replace("-", "−");
/** Up to `max` decimals. @example num(60.347) // "60.347" */
export const num = (n: number, max = 4): string => fmt(0, max).format(n);
/** A fixed number of decimals. @example fixed(0.5, 2) // "0.50" */
export const fixed = (n: number, digits: number): string => fmt(digits, digits).format(n);
/** Tonnes of a period's plan, to 0.1 t (100 kg: finer than any delivery). @example tonnes(2500) // "2,500.0" */
export const tonnes = (n: number): string => fmt(1, 1).format(n);
/** Per tonne unit label of tonnages. */
export const T = "t";
/** A signed percent change at 2 decimals. @example pct(1.27) // "+1.27 %" */
export const pct = (n: number | null): string => (n === null ? "—" : `${fmt(2, 2, true).format(n).replace("-", "−")} %`);

const dateFmt = new Intl.DateTimeFormat("en-GB", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const timeFmt = new Intl.DateTimeFormat("en-GB", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC", hour12: false });
/** A day, UTC (as the API stores instants). @example day("2026-01-08T07:45:00.000Z") // "8 Jan 2026" */
export const day = (iso: string): string => dateFmt.format(new Date(iso));
/** A day and time, UTC. */
export const instant = (iso: string): string => `${timeFmt.format(new Date(iso))} UTC`;
/** YYYY-MM-DD of an instant, UTC. */
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Per tonne unit label, beside every price and cost per tonne. */
export const PER_T = "/t";

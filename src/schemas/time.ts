import { z } from "zod";

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar-valid date and time: `Date.parse` would quietly turn February 30 into March 2. */
function isRealDateTime(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  return isRealDay(year, month, day) && hour < 24 && minute < 60 && second < 60;
}

const isRealDay = (year: number, month: number, day: number): boolean => month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();

/** A calendar date `YYYY-MM-DD` that exists. */
function isRealDate(value: string): boolean {
  const m = CALENDAR_DATE.exec(value);
  return m !== null && isRealDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * A calendar date as the instant it means, its first millisecond in UTC; anything else unchanged.
 * Formulators think in days ("prices as of October 1st"), so every instant a person types may be one.
 * @example fromCalendarDate("2026-10-01") // "2026-10-01T00:00:00.000Z"
 */
export const fromCalendarDate = (value: string): string => (isRealDate(value) ? `${value}T00:00:00.000Z` : value);

/**
 * An ISO 8601 date-time with a time zone, or a calendar date (its 00:00:00.000Z), stored as UTC with
 * milliseconds (docs/decisions.md#http).
 * @example isoDateTime("createdAt").parse("2026-01-08T09:45:00+02:00") // "2026-01-08T07:45:00.000Z"
 * @example isoDateTime("createdAt").parse("2026-01-08") // "2026-01-08T00:00:00.000Z"
 */
export function isoDateTime(field: string) {
  return z
    .string()
    .transform(fromCalendarDate)
    .refine(isRealDateTime, `${field} must be an ISO 8601 date-time with a time zone or a date, such as 2026-01-08T07:45:00.000Z or 2026-01-08`)
    .transform((s) => new Date(s).toISOString())
    .meta({ description: "ISO 8601 date-time with a time zone (stored as UTC with milliseconds), or a date YYYY-MM-DD meaning its 00:00:00.000Z.", example: "2026-01-08T07:45:00.000Z" });
}

/**
 * An instant in a query (`at`, `since`, `from`, `to`): any ISO 8601 date-time with a time zone, as
 * UTC with milliseconds, the precision entries are kept at, or a calendar date (its 00:00:00.000Z).
 * A finer fraction is rounded so the comparison keeps its meaning: down for "at or before" (`at`,
 * `since`), up for `from` (inclusive: nothing before it) and `to` (exclusive: everything before it).
 * @example instant("to", "up").parse("2026-10-01T00:00:00.0004Z") // "2026-10-01T00:00:00.001Z"
 * @example instant("at").parse("2026-10-01") // "2026-10-01T00:00:00.000Z"
 */
export function instant(field: string, rounding: "down" | "up" = "down") {
  return z
    .string({ error: `${field} must be an ISO 8601 date-time or a date (YYYY-MM-DD)` })
    .transform(fromCalendarDate)
    .refine(isRealDateTime, `${field} must be an ISO 8601 date-time or a date (YYYY-MM-DD)`)
    .transform((s) => {
      const finer = /[1-9]/.test(ISO_DATE_TIME.exec(s)![7]?.slice(4) ?? "");
      return new Date(Date.parse(s) + (rounding === "up" && finer ? 1 : 0)).toISOString();
    })
    .meta({ description: "ISO 8601 date-time with a time zone, compared at millisecond precision, or a date YYYY-MM-DD meaning its 00:00:00.000Z.", example: "2026-10-01T00:00:00.000Z", format: "date-time" });
}

import { z } from "zod";

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** A calendar-valid date and time: `Date.parse` would quietly turn February 30 into March 2. */
function isRealDateTime(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour < 24 && minute < 60 && second < 60;
}

/**
 * An ISO 8601 date-time with a time zone, stored as UTC with milliseconds (docs/decisions.md#http).
 * @example isoDateTime("createdAt").parse("2026-01-08T09:45:00+02:00") // "2026-01-08T07:45:00.000Z"
 */
export function isoDateTime(field: string) {
  return z
    .string()
    .refine(isRealDateTime, `${field} must be an ISO 8601 date-time with a time zone, such as 2026-01-08T07:45:00.000Z`)
    .transform((s) => new Date(s).toISOString())
    .meta({ description: "ISO 8601 UTC date-time with milliseconds.", example: "2026-01-08T07:45:00.000Z" });
}

/**
 * An instant in a query (`at`, `since`, `from`, `to`): any ISO 8601 date-time with a time zone, as
 * UTC with milliseconds, the precision entries are kept at. A finer fraction is rounded so the
 * comparison keeps its meaning: down for "at or before" (`at`, `since`), up for `from` (inclusive:
 * nothing before it) and `to` (exclusive: everything before it).
 * @example instant("to", "up").parse("2026-10-01T00:00:00.0004Z") // "2026-10-01T00:00:00.001Z"
 */
export function instant(field: string, rounding: "down" | "up" = "down") {
  return z
    .string({ error: `${field} must be an ISO 8601 date-time` })
    .refine(isRealDateTime, `${field} must be an ISO 8601 date-time`)
    .transform((s) => {
      const finer = /[1-9]/.test(ISO_DATE_TIME.exec(s)![7]?.slice(4) ?? "");
      return new Date(Date.parse(s) + (rounding === "up" && finer ? 1 : 0)).toISOString();
    })
    .meta({ description: "ISO 8601 date-time with a time zone; compared at millisecond precision.", example: "2026-10-01T00:00:00.000Z", format: "date-time" });
}

/**
 * PostgreSQL's text cannot hold a NUL character (SQLite's can, and API bodies refuse control
 * characters, so no stored name has one): a path or filter with one matches no row. Asking would be
 * an error (SQLSTATE 22021), a 500 where SQLite answers 404 or an empty list.
 * @example if (unmatchable(name)) return null
 */
export const unmatchable = (...values: (string | null | undefined)[]): boolean => values.some((v) => v != null && v.includes("\0"));

/**
 * Where a mill's data lives: an SQLite file (the default) or a PostgreSQL database. Chosen on the
 * command line by `--data <file>` or `--database <url>` (docs/decisions.md#postgresql); the URL may
 * hold a password, so show it only through `redactUrl`.
 * @example const where: DataLocation = { kind: "postgres", url: "postgres://mill@db/feedbase" }
 */
export type DataLocation = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

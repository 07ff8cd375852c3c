/**
 * Which test files `make test-postgres` runs against PostgreSQL, and why each other file does not.
 * `make test` runs every test/*.test.ts on SQLite; test/postgres-suite.test.ts checks that each of them
 * is in exactly one list here. A file moves to BACKEND_NEUTRAL only once it passes on PostgreSQL.
 * test/run-files.ts --postgres runs BACKEND_NEUTRAL and POSTGRES_ONLY.
 */

/** Run on both backends: unchanged, through the harness's PostgreSQL mode (test/helpers/postgres.ts). */
export const BACKEND_NEUTRAL: readonly string[] = [
  "test/fault-csv-injection.test.ts",
  "test/console-routes.test.ts",
  "test/console-serve.test.ts",
  "test/bad-input.test.ts",
  "test/cli-keys.test.ts",
  "test/etag.test.ts",
  "test/events.test.ts",
  "test/fault-busy-port.test.ts",
  "test/fault-endless-body.test.ts",
  "test/fault-error-objects.test.ts",
  "test/fault-unicode-names.test.ts",
  "test/formulas.test.ts",
  "test/http-core.test.ts",
  "test/import-export.test.ts",
  "test/import-large.test.ts",
  "test/import-rejections.test.ts",
  "test/ingredients.test.ts",
  "test/logs.test.ts",
  "test/metrics.test.ts",
  "test/openapi.test.ts",
  "test/optimize-cli.test.ts",
  "test/proxy.test.ts",
  "test/reliability-isolation.test.ts",
  "test/reliability-secrets.test.ts",
  "test/tls.test.ts",
  "test/webhook-admin.test.ts",
  "test/webhook-tools.test.ts",
  "test/rate-limit.test.ts",
  "test/webhook-delivery.test.ts",
  "test/reliability-outage.test.ts",
  "test/optimize-http.test.ts",
  "test/shown-differences.test.ts",
  "test/candidates.test.ts",
  "test/history-webhook.test.ts",
  "test/webhook-crash.test.ts",
  "test/executable.test.ts",
  "test/serve.test.ts",
  "test/read-cache.test.ts",
  "test/history.test.ts",
  "test/reliability-concurrency.test.ts",
  "test/demo.test.ts",
  "test/carbon-http.test.ts",
  "test/carbon-cli.test.ts",
  "test/read-cache-bound.test.ts",
  "test/batch-sheets.test.ts",
  "test/sweeps.test.ts",
  "test/plans.test.ts",
  "test/solver-pool.test.ts",
  "test/solver-limits.test.ts",
  "test/solver-flight.test.ts",
  "test/import-update.test.ts",
  "test/import-events.test.ts",
  "test/per-ton-dates.test.ts",
  "test/nutrients.test.ts",
  "test/formulas-put.test.ts",
  "test/plan-events.test.ts",
  "test/plan-carbon.test.ts",
  "test/plan-ratio-repairs.test.ts",
  "test/analyses-store.test.ts",
  "test/confidence-http.test.ts",
  "test/analyses-http.test.ts",
  "test/analyses-cli.test.ts",
  "test/demo-analyses.test.ts",
];

/** Need a cluster, so only make test-postgres runs them (named *.pg.ts: `bun test` alone does not find them). */
export const POSTGRES_ONLY: readonly string[] = [
  "test/postgres/harness.pg.ts",
  "test/postgres/copy-to.pg.ts",
  "test/postgres/pg-dump.pg.ts",
  "test/postgres/shared-limits.pg.ts",
  "test/postgres/pg-serve.pg.ts",
  "test/postgres/admin.pg.ts",
  "test/postgres/instances.pg.ts",
  "test/postgres/outbox.pg.ts",
  "test/postgres/outage.pg.ts",
  "test/postgres/import-race.pg.ts",
  "test/postgres/write-batch.pg.ts",
  "test/postgres/db-faults.pg.ts",
  "test/postgres/webhook-claims.pg.ts",
  "test/postgres/schema-in-step.pg.ts",
];

/**
 * Stop or stall the cluster they run beside (test/helpers/pg-cluster.ts): make test-postgres runs each
 * beside a throwaway cluster of its own, so the files running at the same time keep theirs.
 */
export const OWN_CLUSTER: readonly string[] = ["test/postgres/db-faults.pg.ts", "test/postgres/webhook-claims.pg.ts"];

/** About the SQLite file itself: SQLite only, and why. */
export const SQLITE_ONLY: Readonly<Record<string, string>> = {
  "test/backup-restore.test.ts": "backup and restore copy the SQLite file (on PostgreSQL that is pg_dump's job)",
  "test/backup.test.ts": "backup makes an SQLite copy of the file, also beside concurrent writes and admin commands",
  "test/cli-database.test.ts": "chooses between --data and --database itself (the harness's translation would hide it); needs no server",
  "test/data-file-private.test.ts": "the permission bits of the SQLite file, its -wal and -shm and a backup, under a permissive umask",
  "test/cli-everyday.test.ts": "the data file: missing (commands refuse it in one line, serve creates it), a directory, a backup path",
  "test/deb.test.ts": "the .deb package and its data file under /var/lib/feedbase",
  "test/fault-clean-stop.test.ts": "no -wal or -shm left, the copied file alone complete: SQLite's WAL",
  "test/fault-disk-full.test.ts": "a full disk made with SQLite's max_page_count",
  "test/fault-other-owner.test.ts": "a data file owned by another user",
  "test/make-run.test.ts": "make run's recipe serves an SQLite data file (--data)",
  "test/fault-schema.test.ts": "the SQLite file's schema versions, the copy kept before migrating, what a migration fills in",
  "test/price-log.test.ts": "the price log and its fold, SQLite's layout of the history (PostgreSQL inserts into price_history)",
  "test/quiet-fold.test.ts": "folding the price log when writes go quiet: PostgreSQL has no log",
  "test/data-version.test.ts": "an admin commit seen through the header of SQLite's WAL index (the -shm file), across checkpoints",
  "test/write-queue.test.ts": "the SQLite group commit (WriteQueue) on a bun:sqlite Database",
};

/** Touch no stored data (pure functions, documents, the source tree): one run, in make test, says all. */
export const NO_DATA: Readonly<Record<string, string>> = {
  "test/heap-trim.test.ts": "the heap trim's rule (when a full collection runs, how its slack grows), on an injected clock and memory reading",
  "test/demo-data.test.ts": "the demo's CSV files",
  "test/formula-math.test.ts": "rounding and formula arithmetic",
  "test/failures.test.ts": "the failure table: statuses, command lines and exit codes, the OpenAPI texts, the rate-limit fields",
  "test/store-op.test.ts": "store operations stepped by hand (what each asks, in order) and both runners on scripted statements; the real statements run in every backend-neutral file",
  "test/co2e-cap-proofs.test.ts": "optimize under a CO2e cap, proven against GLPK on seeded problems",
  "test/docs-links.test.ts": "the links of README.md, ARCHITECTURE.md and docs/*.md",
  "test/migrations.test.ts": "the migration files' names and placeholders (the schemas are compared by test/postgres/schema-in-step.pg.ts)",
  "test/frontier-proofs.test.ts": "the cost–CO2e frontier's points, proven against GLPK on seeded problems",
  "test/confidence-proofs.test.ts": "optimizing to a confidence level, proven against a barrier solver (itself against GLPK), the definition and drawn lots on seeded problems",
  "test/limiter.test.ts": "the in-memory rate limiter",
  "test/optimize-proofs.test.ts": "the solver's optima, proven from the demo data",
  "test/rounding-proofs.test.ts": "the rounded optimum against an exhaustive search and GLPK, from seeded problems and the demo data",
  "test/rounding-proofs-large.test.ts": "the rounded optimum of formulas too large for the window search, in exact arithmetic on generated formulas",
  "test/batch-sheet-proofs.test.ts": "batch sheets against an exhaustive search and GLPK, from the demo data",
  "test/sweep-proofs.test.ts": "price sweeps against GLPK re-solves, from the demo data",
  "test/plan-proofs.test.ts": "production plans against GLPK and re-solves, on generated plans",
  "test/postgres-suite.test.ts": "this list",
  "test/structure.test.ts": "import loops and file sizes of src/",
  "test/webhook-docs.test.ts": "the integrator guide's signing example (docs/integrators.md)",
  "test/webhook-retry.test.ts": "the retry schedule",
  "test/webhook-sign.test.ts": "the signature schemes",
};

/** Through HTTP and the CLI only, but not passing on PostgreSQL yet: what they wait for. */
export const WAITING: Readonly<Record<string, string>> = {
  "test/fault-pipelining.test.ts": "Bun closes a pipelined connection behind an answer that waits for the database (oven-sh/bun#38128; docs/decisions.md#serving-from-postgresql); through the sample HAProxy front the same pairs pass on both backends (test/proxy.test.ts)",
};

/**
 * One failure table (src/failures.ts): each error kind has one HTTP status and message, one CLI line
 * and exit code, and the OpenAPI document describes every error status from the same table. The
 * rate-limit fields are named once and say the window the decision was made in.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { InvalidArgumentError } from "commander";
import { reportFailure } from "../cli/failure.ts";
import { CliFailure, ConflictError, NotFoundError, UsageError, ValidationError } from "../src/domain/errors.ts";
import { FAILURES, STATUS_TEXT } from "../src/failures.ts";
import { SolverFailure, SolverUnavailable } from "../src/optimize/solver-errors.ts";
import { toHttpError } from "../src/http/errors.ts";
import { openApiDocument } from "../src/http/openapi.ts";
import { RATE_LIMIT_FIELDS, rateLimitHeaders } from "../src/http/rate-limit.ts";
import { routes } from "../src/http/routes/index.ts";
import { SlidingWindowLimiter } from "../src/limiter/sliding-window.ts";
import { DataFileError } from "../src/store/db.ts";
import { DatabaseTimeout } from "../src/store/deadline.ts";

/** What a command prints and returns for `error`. */
function cli(error: unknown): { line: string; exit: number } {
  let line = "";
  const exit = reportFailure(error, { out: () => {}, err: (text: string) => (line += text) } as never);
  return { line, exit };
}

/** A real SQLITE_FULL: a table that outgrows the pages it may have. */
function sqliteFull(): unknown {
  const db = new Database(":memory:");
  try {
    db.run("CREATE TABLE t (x BLOB)");
    db.run("PRAGMA max_page_count = 3");
    db.run("INSERT INTO t VALUES (zeroblob(100000))");
    return null;
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
}
const diskFull = sqliteFull();
const pgDiskFull = Object.assign(new Error("could not extend file"), { name: "PostgresError", errno: "53100" });

describe("the failure table", () => {
  test("each kind: its HTTP status and message, its command line and exit code", () => {
    const cases: [unknown, number | null, string, number][] = [
      [new ValidationError("price must be a number >= 0"), 400, "price must be a number >= 0", 1],
      [new NotFoundError("Ingredient not found: Maize"), 404, "Ingredient not found: Maize", 1],
      [new ConflictError("Ingredient already exists: Maize"), 409, "Ingredient already exists: Maize", 1],
      [diskFull, 503, "The data file's disk is full: nothing was written; free space and run the command again", 1],
      [pgDiskFull, 503, "PostgreSQL: could not extend file (SQLSTATE 53100)", 1],
      [new DataFileError("x.db is not a feedbase data file"), null, "x.db is not a feedbase data file", 1],
      [new CliFailure("Webhook not found: wh_x"), null, "Webhook not found: wh_x", 1],
      [new UsageError("--limit must be a whole number"), null, "--limit must be a whole number", 2],
      [new InvalidArgumentError("not a number"), null, "not a number", 2],
      [new SolverFailure("The solver could not solve this problem (Aborted())"), 422, "The solver could not solve this problem (Aborted())", 1],
    ];
    for (const [error, status, line, exit] of cases) {
      const http = toHttpError(error);
      expect({ line, status: http?.status ?? null }).toEqual({ line, status });
      expect(cli(error)).toEqual({ line: `error: ${line}\n`, exit });
    }
    expect(toHttpError(diskFull)).toMatchObject({ message: "Storage full", headers: { "Retry-After": "30" } });
    expect(toHttpError(new SolverUnavailable("Solver busy: too many solves waiting", 2))).toMatchObject({ status: 503, message: "Solver busy: too many solves waiting", headers: { "Retry-After": "2" } });
    expect(toHttpError(new DatabaseTimeout(6000))).toMatchObject({ status: 503, message: "Database unavailable", headers: { "Retry-After": "5" } });
    expect(toHttpError(Object.assign(new Error("connection refused"), { code: "ERR_POSTGRES_CONNECTION_REFUSED" }))).toMatchObject({ status: 503, message: "Database unavailable" });
    expect(toHttpError(new Error("bug"))).toBeNull();
    expect(cli(new Error("bug")).line).toStartWith("error: unexpected failure: Error: bug");
  });

  test("every status the table answers, and every error status of the OpenAPI document, has its text there", () => {
    for (const failure of FAILURES) if (failure.http) expect(STATUS_TEXT[failure.http.status]).toBeString();
    const doc = openApiDocument(routes) as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    for (const operations of Object.values(doc.paths)) {
      for (const { responses } of Object.values(operations)) {
        for (const [status, response] of Object.entries(responses)) if (Number(status) >= 400) expect(response.description).toBe(STATUS_TEXT[Number(status)]!);
      }
    }
  });
});

describe("the rate-limit fields", () => {
  test("a limiter with another window says that window in RateLimit-Policy, not 3600", () => {
    const limiter = new SlidingWindowLimiter({ windowMs: 60_000, clock: () => 1_000_000 });
    expect(rateLimitHeaders(limiter.check("key_a", 10), 1_000_000)["RateLimit-Policy"]).toBe('"default";q=10;w=60');
    expect(rateLimitHeaders(new SlidingWindowLimiter().check("key_a", 10), 1_000_000)["RateLimit-Policy"]).toBe('"default";q=10;w=3600');
  });

  test("the fields sent are the fields the OpenAPI document names", () => {
    const sent = Object.keys(rateLimitHeaders(new SlidingWindowLimiter().check("key_a", 10), Date.now())).sort();
    expect(sent).toEqual(Object.keys(RATE_LIMIT_FIELDS).sort());
    const doc = openApiDocument(routes) as { components: { headers: Record<string, unknown> } };
    for (const name of sent) expect(doc.components.headers[name]).toMatchObject({ schema: { type: RATE_LIMIT_FIELDS[name as keyof typeof RATE_LIMIT_FIELDS].type } });
  });
});

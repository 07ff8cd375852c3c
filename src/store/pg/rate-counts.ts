/**
 * The rate limiter's shared counts on PostgreSQL (migration 2): each instance's accepted requests per
 * key and second. No notification: limits are exchanged on their own clock (src/limiter/shared-counts.ts),
 * and a count changes no cached body.
 */
import type { SQL } from "bun";
import type { CountRow, SharedCountStore } from "../rate-count-rows.ts";

/**
 * The three statements shared counting needs, on `sql`.
 * @example const counts = new SharedCounts(pgSharedCounts(sql), { instance: "a1b2" })
 */
export function pgSharedCounts(sql: SQL): SharedCountStore {
  return {
    async add(instance, rows) {
      // Arrays, so a whole exchange is one statement whatever the number of keys.
      await sql`
        INSERT INTO rate_counts (instance, key_id, second, count)
        SELECT ${instance}, k, s, c
          FROM unnest(${sql.array(rows.map((r) => r.keyId), "text")}::text[],
                      ${sql.array(rows.map((r) => r.second), "int8")}::int8[],
                      ${sql.array(rows.map((r) => r.count), "int4")}::int4[]) AS t(k, s, c)
        ON CONFLICT (instance, key_id, second)
          DO UPDATE SET count = rate_counts.count + EXCLUDED.count, xid = pg_current_xact_id()`;
    },
    async changes(instance, fromSecond, since) {
      // One statement, one snapshot: every transaction older than its xmin is over, so the next call
      // asks from there and cannot miss a row that commits later with an older id.
      const rows = (await sql`
        WITH snap AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin)
        SELECT snap.xmin, r.instance, r.key_id AS "keyId", r.second::float8 AS second, r.count
          FROM snap LEFT JOIN rate_counts r
            ON r.instance <> ${instance} AND r.second >= ${fromSecond}
           AND (${since}::text IS NULL OR r.xid >= ${since}::text::xid8)`) as ({ xmin: string } & Partial<CountRow & { instance: string }>)[];
      const counts = rows.filter((r) => r.instance != null).map((r) => ({ instance: r.instance!, keyId: r.keyId!, second: r.second!, count: r.count! }));
      return { counts, next: rows[0]!.xmin };
    },
    async prune(beforeSecond) {
      await sql`DELETE FROM rate_counts WHERE second < ${beforeSecond}`;
    },
  };
}

/**
 * PostgreSQL only (make test-postgres): `import ingredients` checks the file outside the transaction and
 * writes its new rows pipelined, in chunks (src/store/imports.ts). A name another process adds between
 * the check and the write fails the whole file with the row that was taken, however far into a chunk it
 * is and whatever the statements behind it answered, and nothing of the file is stored.
 */
import { describe, expect, test } from "bun:test";
import { openPostgres } from "../../src/store/pg/connect.ts";
import { checkIngredientImport, writeIngredientImport } from "../../src/store/imports.ts";
import { writeTransaction } from "../../src/store/pg/transaction.ts";
import { cli, tempDir } from "../helpers/harness.ts";
import { databaseFor, psql } from "../helpers/postgres.ts";

const ROWS = 1_200;
const TAKEN = 777;

describe("an ingredient import on PostgreSQL", () => {
  test("refuses the whole file, naming the row, when one of its names was added after the check", async () => {
    const tmp = tempDir();
    try {
      expect((await cli(["key", "create", "--data", tmp.dataPath])).code).toBe(0);
      const url = databaseFor(tmp.dataPath)!;
      const sql = await openPostgres(url, { max: 2 });
      try {
        const csv = ["name,category,price,inStock", ...Array.from({ length: ROWS }, (_, i) => `Grain ${i},Cereals,${100 + i},true`)].join("\n");
        const now = new Date().toISOString();
        const workspaceId = ((await sql`SELECT id FROM workspaces WHERE slug = 'default'`) as { id: number }[])[0]!.id;
        const rows = await checkIngredientImport(sql, workspaceId, csv, "csv", { update: false, now });
        expect(rows).toHaveLength(ROWS);
        // Another process adds one of the file's names now, after the check.
        psql(url, `INSERT INTO ingredients (workspace_id, name, category, price, in_stock, nutrients, nutrient_count, created_at, updated_at)
          VALUES (${workspaceId}, 'Grain ${TAKEN}', 'Cereals', 1, 1, '{}', 0, '${now}', '${now}')`);
        const write = writeTransaction(sql, (tx) => writeIngredientImport(tx, workspaceId, rows, { update: false, now }));
        await expect(write).rejects.toThrow(`line ${TAKEN + 2}: Ingredient already exists: Grain ${TAKEN} (added while importing; nothing was imported)`);
        expect(psql(url, "SELECT count(*) FROM ingredients").trim()).toBe("1");
        expect(psql(url, "SELECT count(*) FROM price_history").trim()).toBe("0");
      } finally {
        await sql.close();
      }
    } finally {
      tmp.cleanup();
    }
  }, 60_000);
});

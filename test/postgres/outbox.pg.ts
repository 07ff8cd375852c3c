/**
 * PostgreSQL only (make test-postgres): a price change through the API beside an admin import that
 * changes the same price and has not committed yet. The API change waits for it, and its event's
 * `old_price` is the imported price it replaces, as on SQLite, where one writer at a time is the rule.
 */
import { SQL } from "bun";
import { describe, expect, test } from "bun:test";
import { cli, eventually, spawnServe, tempDir } from "../helpers/harness.ts";
import { databaseFor, psql } from "../helpers/postgres.ts";

describe("the outbox beside an admin import", () => {
  test("a PUT waits for an uncommitted import of the same price and names it as the old price", async () => {
    const tmp = tempDir();
    const server = await spawnServe(tmp.dataPath);
    const url = databaseFor(tmp.dataPath)!;
    const held = new SQL(url, { max: 1 });
    try {
      const { key } = JSON.parse((await cli(["key", "create", "--write", "--json", "--data", tmp.dataPath])).stdout) as { key: string };
      const put = (price: number) =>
        fetch(server.url + "/v1/prices/Maize", { method: "PUT", headers: { "X-API-Key": key }, body: JSON.stringify({ price }) });
      expect((await fetch(server.url + "/v1/ingredients", { method: "POST", headers: { "X-API-Key": key }, body: JSON.stringify({ name: "Maize", category: "Cereals", price: 200 }) })).status).toBe(201);

      // What `import --update` does to a row, held open: the row locked and its price changed.
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => (commit = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const importing = held.begin(async (tx) => {
        await tx`SELECT price FROM ingredients WHERE name = 'Maize' FOR UPDATE`;
        await tx`UPDATE ingredients SET price = 250 WHERE name = 'Maize'`;
        locked();
        await committed;
      });
      await isLocked;
      const answer = put(300);
      // The PUT is waiting on the import's row lock (PostgreSQL shows it as a lock wait).
      await eventually(() => psql(url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'").trim() === "1", 10_000);
      commit();
      await importing;
      expect((await answer).status).toBe(200);
      const events = psql(url, "SELECT payload FROM events WHERE type = 'price.updated' ORDER BY id").trim().split("\n").map((line) => JSON.parse(line));
      expect(events.map((e: { old_price: number; new_price: number }) => [e.old_price, e.new_price])).toEqual([[250, 300]]);
    } finally {
      await held.close();
      await server.stop();
      tmp.cleanup();
    }
  }, 60_000);
});

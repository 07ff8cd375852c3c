/**
 * PostgreSQL only (make test-postgres): the group commit of API writes (src/store/pg/write-batch.ts)
 * through a real server. Concurrent writes share commits and each stored change has its one event, in
 * commit order; inside a batch a failing write rolls back only itself and its caller gets the error it
 * always got; a batch whose COMMIT fails answers every one of its requests with an error and stores
 * nothing of them. A batch's members are fixed by holding the outbox lock from the test: the batch in
 * flight waits on it, and the writes sent meanwhile are counted by GET /metrics (feedbase_writes_waiting)
 * before it is let go, so they all go in the next batch. A batch whose connection is lost fails whole,
 * and the next one starts on another connection.
 */
import { SQL } from "bun";
import { describe, expect, test } from "bun:test";
import { OUTBOX_LOCK } from "../../src/store/pg/events.ts";
import { cli, eventually, spawnServe, tempDir, type ServeProcess } from "../helpers/harness.ts";
import { databaseFor, psql } from "../helpers/postgres.ts";

const NAMES = ["Maize", "Wheat", "Barley", "Oats", "Rye", "Sorghum", "Triticale", "Millet"];

/** A server with --metrics on a fresh database holding NAMES at price 100, a write key, and a way to stop it all. */
async function served() {
  const tmp = tempDir();
  let server: ServeProcess | null = null;
  const stop = async () => {
    if (server) await server.stop();
    tmp.cleanup();
  };
  try {
    const { key } = JSON.parse((await cli(["key", "create", "--write", "--rate-limit", "1000000", "--json", "--data", tmp.dataPath])).stdout) as { key: string };
    server = await spawnServe(tmp.dataPath, { args: ["--metrics"] });
    const base = server.url;
    const call = (method: string, path: string, body: unknown) =>
      fetch(base + path, { method, headers: { "X-API-Key": key, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const put = (name: string, price: number) => call("PUT", `/v1/prices/${encodeURIComponent(name)}`, { price });
    const post = (name: string) => call("POST", "/v1/ingredients", { name, category: "Cereals", price: 100 });
    for (const name of NAMES) expect((await post(name)).status).toBe(201);
    const metric = async (name: string) => {
      const text = await (await fetch(base + "/metrics")).text();
      const line = text.split("\n").find((l) => l.startsWith(name + " "));
      if (line === undefined) throw new Error(`no ${name} in /metrics`);
      return Number(line.slice(name.length + 1));
    };
    return { url: databaseFor(tmp.dataPath)!, put, post, metric, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

type Served = Awaited<ReturnType<typeof served>>;

/**
 * Run `inFlight` as a batch held on the outbox lock, send `next` while it waits, and let it go once the
 * server counts all of `next` waiting: they are then one batch. Resolves to every answer.
 */
async function holdThenBatch(s: Served, inFlight: () => Promise<Response>, next: (() => Promise<Response>)[]) {
  const held = new SQL(s.url, { max: 1 });
  try {
    await held`SELECT pg_advisory_lock(${OUTBOX_LOCK})`;
    const first = inFlight();
    await eventually(() => psql(s.url, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").trim() === "1", 10_000);
    const rest: Promise<Response>[] = [];
    // One at a time, so the batch takes them in this order.
    for (const send of next) {
      rest.push(send());
      await eventually(async () => (await s.metric("feedbase_writes_waiting")) === rest.length, 10_000);
    }
    await held`SELECT pg_advisory_unlock(${OUTBOX_LOCK})`;
    return { first: await first, rest: await Promise.all(rest) };
  } finally {
    await held.close();
  }
}

/** One column of a query, one value a line. */
const column = (url: string, query: string) => psql(url, query).trim().split("\n").filter((line) => line !== "");

describe("group commit on PostgreSQL", () => {
  test("concurrent PUTs are all answered, share commits, and each stored change has one event, in commit order", async () => {
    const s = await served();
    try {
      const commitsBefore = await s.metric("feedbase_group_commit_batch_size_count");
      const [historyBefore] = column(s.url, "SELECT max(id) FROM price_history");
      // 20 distinct prices per ingredient, and PUTs of names that do not exist among them (404s inside batches).
      const sent = Array.from({ length: 160 }, (_, i) => ({ name: NAMES[i % NAMES.length]!, price: 100 + (i + 1) / 100 }));
      const missing = Array.from({ length: 8 }, (_, i) => `Missing ${i}`);
      const answers = await Promise.all([...sent.map((w) => s.put(w.name, w.price)), ...missing.map((name) => s.put(name, 1))]);
      const bodies = await Promise.all(answers.map((res) => res.json() as Promise<{ status?: string; data?: { name: string; price: number }; message?: string }>));
      sent.forEach((w, i) => {
        expect(answers[i]!.status).toBe(200);
        expect(bodies[i]!.data).toMatchObject({ name: w.name, price: w.price });
      });
      missing.forEach((name, i) => {
        expect(answers[sent.length + i]!.status).toBe(404);
        expect(bodies[sent.length + i]).toEqual({ status: "error", message: `Ingredient not found: ${name}` });
      });

      // The stored changes, in the order they were stored, and the events, in id order.
      const history = column(s.url, "SELECT i.name || '|' || h.price FROM price_history h JOIN ingredients i ON i.id = h.ingredient_id WHERE h.id > " + Number(historyBefore) + " ORDER BY h.id");
      const events = column(s.url, "SELECT id || '|' || payload FROM events WHERE type = 'price.updated' ORDER BY id").map((line) => {
        const [id, payload] = [line.slice(0, line.indexOf("|")), JSON.parse(line.slice(line.indexOf("|") + 1)) as { ingredient: string; old_price: number; new_price: number }];
        return { id: Number(id), ...payload };
      });
      // Every acknowledged change is stored once and has exactly one event; nothing else is there.
      expect(history.toSorted()).toEqual(sent.map((w) => `${w.name}|${w.price}`).toSorted());
      expect(events.map((e) => `${e.ingredient}|${e.new_price}`).toSorted()).toEqual(history.toSorted());
      // Event ids rise in the order the changes were stored, and each event's old price is the one it replaced.
      const eventOf = new Map(events.map((e) => [`${e.ingredient}|${e.new_price}`, e]));
      const ids = history.map((change) => eventOf.get(change)!.id);
      for (let i = 1; i < ids.length; i++) expect(ids[i]!).toBeGreaterThan(ids[i - 1]!);
      const last = new Map(NAMES.map((name) => [name, 100]));
      for (const change of history) {
        const event = eventOf.get(change)!;
        expect(event.old_price).toBe(last.get(event.ingredient)!);
        last.set(event.ingredient, event.new_price);
      }
      for (const name of NAMES) expect(Number(psql(s.url, "SELECT price FROM ingredients WHERE name = :'name'", { name }).trim())).toBe(last.get(name)!);

      // All 168 writes were counted, in fewer commits than writes: they shared.
      const commits = (await s.metric("feedbase_group_commit_batch_size_count")) - commitsBefore;
      expect(commits).toBeLessThan(answers.length);
      expect(await s.metric("feedbase_writes_waiting")).toBe(0);
    } finally {
      await s.stop();
    }
  }, 60_000);

  test("in one batch, two creates of one name answer 201 and today's 409, and a write that fails mid-way rolls back only itself", async () => {
    const s = await served();
    try {
      // A fault inside a write, after its UPDATE: the history row of this one price is refused.
      psql(
        s.url,
        `CREATE FUNCTION refuse_price() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$;
         CREATE TRIGGER refuse_price BEFORE INSERT ON price_history FOR EACH ROW WHEN (NEW.price = 666.25) EXECUTE FUNCTION refuse_price()`,
      );
      const { first, rest } = await holdThenBatch(s, () => s.put("Maize", 101), [() => s.post("Bran"), () => s.put("Barley", 666.25), () => s.post("Bran"), () => s.put("Wheat", 105)]);
      expect(first.status).toBe(200);
      const [bran1, barley, bran2, wheat] = rest as [Response, Response, Response, Response];
      expect([bran1.status, bran2.status].toSorted()).toEqual([201, 409]);
      const [created, refused] = bran1.status === 201 ? [bran1, bran2] : [bran2, bran1];
      expect((await created.json()).data).toMatchObject({ name: "Bran", price: 100 });
      expect(await refused.json()).toEqual({ status: "error", message: "Ingredient already exists: Bran" });
      // The same refusal as a create of an existing name on its own.
      const alone = await s.post("Bran");
      expect(alone.status).toBe(409);
      expect(await alone.json()).toEqual({ status: "error", message: "Ingredient already exists: Bran" });
      expect(barley.status).toBe(500);
      expect(wheat.status).toBe(200);

      expect(column(s.url, "SELECT name || '|' || price FROM ingredients WHERE name IN ('Bran', 'Barley', 'Wheat', 'Maize') ORDER BY name")).toEqual(["Barley|100", "Bran|100", "Maize|101", "Wheat|105"]);
      expect(column(s.url, "SELECT type || '|' || ingredient FROM events WHERE id > (SELECT max(id) FROM events WHERE ingredient = 'Millet') ORDER BY id")).toEqual([
        "price.updated|Maize",
        "ingredient.added|Bran",
        "price.updated|Wheat",
      ]);
      expect(column(s.url, "SELECT count(*) FROM price_history WHERE price = 666.25")).toEqual(["0"]);
    } finally {
      await s.stop();
    }
  }, 60_000);

  test("a batch whose COMMIT fails answers each of its requests with an error, stores none of them, and the next writes succeed", async () => {
    const s = await served();
    try {
      // Checked at COMMIT: a batch holding this one price cannot commit.
      psql(
        s.url,
        `CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.price = 999.75 THEN RAISE EXCEPTION 'refused at commit for the test'; END IF; RETURN NULL; END $$;
         CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON price_history DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit()`,
      );
      const eventsBefore = column(s.url, "SELECT count(*) FROM events")[0];
      const { first, rest } = await holdThenBatch(s, () => s.put("Maize", 101), [() => s.put("Wheat", 102), () => s.put("Barley", 999.75), () => s.post("Bran"), () => s.put("Oats", 103)]);
      expect(first.status).toBe(200);
      for (const res of rest) {
        expect(res.status).toBe(500);
        expect(await res.json()).toMatchObject({ status: "error" });
      }
      expect(column(s.url, "SELECT name || '|' || price FROM ingredients WHERE name IN ('Maize', 'Wheat', 'Barley', 'Bran', 'Oats') ORDER BY name")).toEqual([
        "Barley|100",
        "Maize|101",
        "Oats|100",
        "Wheat|100",
      ]);
      expect(column(s.url, "SELECT count(*) FROM events")).toEqual([String(Number(eventsBefore) + 1)]);

      // The next batch starts afresh: the same writes, without the refused price, succeed.
      const after = await Promise.all([s.put("Wheat", 102), s.put("Barley", 104), s.post("Bran"), s.put("Oats", 103)]);
      expect(after.map((res) => res.status)).toEqual([200, 200, 201, 200]);
      expect(column(s.url, "SELECT name || '|' || price FROM ingredients WHERE name IN ('Wheat', 'Barley', 'Bran', 'Oats') ORDER BY name")).toEqual([
        "Barley|104",
        "Bran|100",
        "Oats|103",
        "Wheat|102",
      ]);
      expect(column(s.url, "SELECT count(*) FROM events")).toEqual([String(Number(eventsBefore) + 5)]);
    } finally {
      await s.stop();
    }
  }, 60_000);

  test("a batch whose connection is lost mid-way answers each of its requests with an error, even a write done before, and the next batch commits", async () => {
    const s = await served();
    // Holds Oats' row, so the batch stops at Oats, after Wheat has been written in its savepoint.
    const rowHolder = new SQL(s.url, { max: 1 });
    let letGo!: () => void;
    const holding = new Promise<void>((resolve) => (letGo = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const rowHeld = rowHolder.begin(async (tx) => {
      await tx`SELECT 1 FROM ingredients WHERE name = 'Oats' FOR UPDATE`;
      locked();
      await holding;
      throw new Error("rolled back");
    }).catch(() => {});
    try {
      await isLocked;
      const eventsBefore = column(s.url, "SELECT count(*) FROM events")[0];
      const batch = holdThenBatch(s, () => s.put("Maize", 101), [() => s.put("Wheat", 102), () => s.put("Oats", 103), () => s.post("Bran")]);
      await eventually(() => psql(s.url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'transactionid'").trim() === "1", 10_000);
      const pid = psql(s.url, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'transactionid'").trim();
      expect(psql(s.url, `SELECT pg_terminate_backend(${Number(pid)})`).trim()).toBe("t");
      letGo();
      await rowHeld;
      const { first, rest } = await batch;
      expect(first.status).toBe(200);
      // A lost connection is the database being unavailable (docs/decisions.md#database-faults), not a bug.
      for (const res of rest) {
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ status: "error", message: "Database unavailable" });
      }
      expect(column(s.url, "SELECT name || '|' || price FROM ingredients WHERE name IN ('Maize', 'Wheat', 'Oats', 'Bran') ORDER BY name")).toEqual(["Maize|101", "Oats|100", "Wheat|100"]);
      expect(column(s.url, "SELECT count(*) FROM events")).toEqual([String(Number(eventsBefore) + 1)]);

      // The next batch runs on another connection of the pool.
      const after = await Promise.all([s.put("Wheat", 102), s.put("Oats", 103), s.post("Bran")]);
      expect(after.map((res) => res.status)).toEqual([200, 200, 201]);
      expect(column(s.url, "SELECT count(*) FROM events")).toEqual([String(Number(eventsBefore) + 4)]);
    } finally {
      letGo();
      await rowHolder.close();
      await s.stop();
    }
  }, 60_000);
});

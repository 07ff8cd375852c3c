import { afterEach, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { openDatabase } from "../src/store/db.ts";
import { WriteQueue } from "../src/store/write-queue.ts";
import { tempDir } from "./helpers/harness.ts";

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

function setup() {
  const tmp = tempDir();
  const db = openDatabase(tmp.dataPath, { create: true });
  db.run("CREATE TABLE t (x INTEGER UNIQUE)");
  const effectErrors: unknown[] = [];
  const queue = new WriteQueue(db, (error) => effectErrors.push(error));
  cleanup = () => {
    db.close();
    tmp.cleanup();
  };
  return { db, queue, effectErrors, dataPath: tmp.dataPath };
}
const rows = (db: Database) => (db.query("SELECT x FROM t ORDER BY x").all() as { x: number }[]).map((r) => r.x);

describe("WriteQueue (group commit)", () => {
  test("writes of one turn share one commit; a failing write rolls back only itself, and its effects with it", async () => {
    const { db, queue } = setup();
    const ran: string[] = [];
    const shared = () => ran.push("shared");
    const results = await Promise.allSettled([
      queue.run((tx) => {
        tx.afterCommit(shared);
        return db.run("INSERT INTO t VALUES (1)");
      }),
      queue.run((tx) => {
        tx.afterCommit(() => ran.push("failed write's"));
        db.run("INSERT INTO t VALUES (2)");
        db.run("INSERT INTO t VALUES (1)"); // UNIQUE violation: this write's savepoint is rolled back
      }),
      queue.run((tx) => {
        tx.afterCommit(shared);
        tx.afterCommit(() => ran.push(`third sees ${rows(db).join(",")}`));
        return db.run("INSERT INTO t VALUES (3)");
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(rows(db)).toEqual([1, 3]);
    // Once per batch, after the commit, and only for the writes that happened.
    expect(ran).toEqual(["shared", "third sees 1,3"]);
  });

  test("effects run after the commit and before any write of the batch is acknowledged", async () => {
    const { db, queue } = setup();
    const order: string[] = [];
    const other = openDatabase(db.filename, { create: false });
    const seenByOthers = () => (other.query("SELECT count(*) AS n FROM t").get() as { n: number }).n;
    await queue.run((tx) => {
      tx.afterCommit(() => order.push(`effect: ${seenByOthers()} row durable`));
      return db.run("INSERT INTO t VALUES (5)");
    }).then(() => order.push("acknowledged"));
    other.close();
    expect(order).toEqual(["effect: 1 row durable", "acknowledged"]);
  });

  test("when an effect throws, every promise of the batch still settles, the other effects run, and the error is reported", async () => {
    const { db, queue, effectErrors } = setup();
    const ran: string[] = [];
    const results = await Promise.allSettled([
      queue.run((tx) => {
        tx.afterCommit(() => {
          throw new Error("effect failed");
        });
        return db.run("INSERT INTO t VALUES (40)").changes;
      }),
      queue.run((tx) => {
        tx.afterCommit(() => ran.push("second effect"));
        return db.run("INSERT INTO t VALUES (41)").changes;
      }),
    ]);
    expect(results).toEqual([{ status: "fulfilled", value: 1 }, { status: "fulfilled", value: 1 }]);
    expect(ran).toEqual(["second effect"]);
    expect(effectErrors.map(String)).toEqual(["Error: effect failed"]);
    expect(rows(db)).toEqual([40, 41]);
  });

  test("a write whose error ends the whole transaction (as SQLITE_FULL or an I/O error can) fails the batch: later writes never commit on their own", async () => {
    const { db, queue } = setup();
    const ran: string[] = [];
    const results = await Promise.allSettled([
      queue.run(() => db.run("INSERT INTO t VALUES (50)")),
      queue.run(() => {
        db.run("INSERT INTO t VALUES (51)");
        // What SQLite does itself on some errors: the whole transaction is rolled back, savepoints and all.
        db.run("ROLLBACK");
        throw new Error("disk I/O error");
      }),
      queue.run((tx) => {
        tx.afterCommit(() => ran.push("effect"));
        return db.run("INSERT INTO t VALUES (52)");
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(rows(db)).toEqual([]);
    expect(ran).toEqual([]);
    expect(db.inTransaction).toBe(false);
    // The queue goes on working.
    await queue.run(() => db.run("INSERT INTO t VALUES (53)"));
    expect(rows(db)).toEqual([53]);
  });

  test("when the commit itself cannot happen, every write of the batch is refused and nothing is kept", async () => {
    const { db, queue, dataPath } = setup();
    const other = openDatabase(dataPath, { create: false });
    other.run("PRAGMA busy_timeout = 0");
    db.run("PRAGMA busy_timeout = 0");
    other.run("BEGIN IMMEDIATE"); // another process holds the write lock
    const results = await Promise.allSettled([queue.run(() => db.run("INSERT INTO t VALUES (20)")), queue.run(() => db.run("INSERT INTO t VALUES (21)"))]);
    other.run("ROLLBACK");
    other.close();
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(rows(db)).toEqual([]);
  });

  test("a write an answer waits on commits before the current microtasks end (Bun reads a pipelined request right after); a batched one rides along or waits for the turn's end", async () => {
    const { db, queue } = setup();
    const commits: string[] = [];
    const committed = () => commits.push("commit");
    let turnEnded = false;
    setImmediate(() => (turnEnded = true));
    const batched = queue.runLater((tx) => {
      tx.afterCommit(committed);
      return db.run("INSERT INTO t VALUES (50)");
    });
    await queue.run((tx) => {
      tx.afterCommit(committed);
      return db.run("INSERT INTO t VALUES (51)");
    });
    expect(turnEnded).toBe(false);
    await batched;
    expect(commits).toEqual(["commit"]); // one effect registered twice in one batch runs once: they shared the commit
    expect(rows(db)).toEqual([50, 51]);

    const alone = queue.runLater(() => db.run("INSERT INTO t VALUES (52)"));
    await Promise.resolve();
    await Promise.resolve();
    expect(rows(db)).toEqual([50, 51]);
    await alone;
    expect(rows(db)).toEqual([50, 51, 52]);
  });

  test("close commits what is queued and refuses later writes", async () => {
    const { db, queue } = setup();
    const pending = queue.run(() => db.run("INSERT INTO t VALUES (30)"));
    queue.close();
    await pending;
    expect(rows(db)).toEqual([30]);
    await expect(queue.run(() => db.run("INSERT INTO t VALUES (31)"))).rejects.toThrow("closed");
  });

  test("an async write is refused at compile time (make check fails if NotPromise stops refusing it)", () => {
    const { db, queue } = setup();
    // @ts-expect-error: the work would commit before its awaits and write outside the transaction
    const refused = () => queue.run(async () => db.run("INSERT INTO t VALUES (60)"));
    expect(typeof refused).toBe("function");
  });
});

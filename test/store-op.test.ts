import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { NotFoundError } from "../src/domain/errors.ts";
import { all, operation, ownTransaction, runSqlite, statements, type Op, type Step } from "../src/store/op.ts";
import { removeWebhook } from "../src/store/webhooks.ts";

/** Step an operation by hand, answering each statement from a script: what it asks, in order, with no database. */
function stepThrough<T>(op: Op<T>, answers: unknown[]): { asked: string[]; result: T } {
  const asked: string[] = [];
  let next = op.next();
  while (!next.done) {
    asked.push(`${(next.value as Step<unknown>).name}(${(next.value as Step<unknown>).args.join(", ")})`);
    next = op.next(answers.shift());
  }
  return { asked, result: next.value };
}

describe("store operations written once", () => {
  test("an operation is the sequence of statements it yields, the same for both dialects", () => {
    expect(stepThrough(removeWebhook.steps("wh_1"), [undefined, 3, 1])).toEqual({
      asked: ["requireTransaction(removeWebhook)", "pendingCount(wh_1)", "deleteWebhook(wh_1)"],
      result: 3,
    });
    expect(() => stepThrough(removeWebhook.steps("wh_1"), [undefined, 0, 0])).toThrow(NotFoundError);
  });

  test("a failed statement is thrown into the operation at its yield, on SQLite and on a promise-returning dialect", async () => {
    const boom = new Error("constraint failed");
    const q = statements<{ insert(n: number): void; count(): number }>(
      { insert: () => { throw boom; }, count: () => 7 },
      { insert: async () => { throw boom; }, count: async () => 7 },
    );
    const op = operation(function* (n: number) {
      try {
        yield* q.insert(n);
        return "inserted";
      } catch (error) {
        return `caught ${(error as Error).message}, count ${yield* q.count()}`;
      }
    });
    const db = new Database(":memory:");
    const onSqlite = op(db, 1);
    // Synchronous: a value, not a promise, so it fits transaction() and WriteQueue.run.
    expect(onSqlite).toBe("caught constraint failed, count 7");
    expect(runSqlite(db, op.steps(1))).toBe("caught constraint failed, count 7");
    const fakePg = {} as unknown as import("bun").SQL;
    const onPg = op(fakePg, 1);
    expect(onPg).toBeInstanceOf(Promise);
    expect(await onPg).toBe("caught constraint failed, count 7");
    db.close();
  });

  test("an operation among all()'s parts starts with the others on a promise-returning dialect (one round trip) and runs in its turn on SQLite", async () => {
    const log: string[] = [];
    const q = statements<{ say(word: string): string }>(
      { say: (_db, word) => (log.push(word), word) },
      {
        say: (_sql, word) => {
          log.push(`send ${word}`);
          return Promise.resolve().then(() => (log.push(`answer ${word}`), word));
        },
      },
    );
    const inner = operation(function* () {
      const first = yield* q.say("b");
      return first + (yield* q.say("c"));
    });
    const outer = operation(function* () {
      return yield* all(q.say("a"), inner.steps());
    });
    expect(outer(new Database(":memory:"))).toEqual(["a", "bc"]);
    expect(log).toEqual(["a", "b", "c"]);
    log.length = 0;
    expect(await outer({} as unknown as import("bun").SQL)).toEqual(["a", "bc"]);
    // b went out before a was answered; c waited for b's answer.
    expect(log).toEqual(["send a", "send b", "answer a", "answer b", "send c", "answer c"]);
  });

  test("ownTransaction runs an operation in a transaction of its own on SQLite: outside it nothing is open, a failure rolls it all back and is thrown at its yield", () => {
    const db = new Database(":memory:");
    db.run("CREATE TABLE t (n INTEGER UNIQUE)");
    const q = statements<{ insert(n: number): boolean; count(): number }>(
      { insert: (conn, n) => (conn.query("INSERT INTO t VALUES (?)").run(n), conn.inTransaction), count: (conn) => (conn.query("SELECT count(*) AS c FROM t").get() as { c: number }).c },
      { insert: async () => true, count: async () => 0 },
    );
    const write = operation(function* (ns: number[]) {
      const inside: boolean[] = [];
      for (const n of ns) inside.push(yield* q.insert(n));
      return inside;
    });
    const whole = operation(function* (ns: number[]) {
      try {
        return { inside: yield* ownTransaction(write.steps(ns)), open: db.inTransaction, count: yield* q.count() };
      } catch (error) {
        return { failed: (error as Error).message, open: db.inTransaction, count: yield* q.count() };
      }
    });
    expect(whole(db, [1, 2])).toEqual({ inside: [true, true], open: false, count: 2 });
    // 4 is written before 2 fails; the rollback takes it back.
    expect(whole(db, [4, 2])).toEqual({ failed: "UNIQUE constraint failed: t.n", open: false, count: 2 });
    db.close();
  });
});

/**
 * Issue 15, item 3: HTTP/1.1 pipelining. Bun 1.3 closes a connection when a request is parsed while the
 * answer ahead of it is still pending, so a write must be answered before Bun reads on (the group
 * commit runs in a microtask, src/store/write-queue.ts). Checked over a raw socket, as a client that
 * pipelines sends.
 */
import { describe, expect, test } from "bun:test";
import { startTestServer } from "./helpers/harness.ts";
import { pipelinedPairs, pricesOf, rawConnection } from "./helpers/raw-http.ts";

const PAIRS = 100;

describe("pipelined requests", () => {
  test(`${PAIRS} PUT/GET pairs sent at once on one connection, then pairs one at a time: every answer, in order, each GET seeing its PUT`, async () => {
    const t = await startTestServer();
    try {
      const key = t.key({ write: true });
      expect((await t.request("POST", "/v1/ingredients", { key, body: { name: "Maize", price: 100 } })).status).toBe(201);
      const host = `127.0.0.1:${t.service.port}`;
      const bulk = await rawConnection(t.service.port);
      bulk.send(pipelinedPairs(host, key, 200, PAIRS));
      const all = await bulk.until(PAIRS * 2);
      expect(bulk.closed()).toBe(false);
      expect(all.map((a) => a.status)).toEqual(Array.from({ length: PAIRS * 2 }, () => 200));
      expect(pricesOf(all)).toEqual(Array.from({ length: PAIRS }, (_, i) => [200 + i, 200 + i]).flat());
      bulk.end();

      // The issue's own case, repeated on a kept-alive connection: a pair, its answers, the next pair.
      const paced = await rawConnection(t.service.port);
      for (let i = 0; i < 20; i++) {
        paced.send(pipelinedPairs(host, key, 500 + i, 1));
        const answers = await paced.until(2 * (i + 1));
        expect({ i, closed: paced.closed(), answers: answers.length }).toEqual({ i, closed: false, answers: 2 * (i + 1) });
        expect(pricesOf(answers.slice(-2))).toEqual([500 + i, 500 + i]);
      }
      paced.end();
    } finally {
      await t.stop();
    }
  }, 30_000);
});

/**
 * Issue 15, item 3: HTTP/1.1 pipelining. Bun 1.3 closes a connection when a request is parsed while the
 * answer ahead of it is still pending, so a write must be answered before Bun reads on (the group
 * commit runs in a microtask, src/store/write-queue.ts). Checked over a raw socket, as a client that
 * pipelines sends.
 */
import { describe, expect, test } from "bun:test";
import { startTestServer } from "./helpers/harness.ts";

const PAIRS = 100;

/** A raw connection: send bytes, wait until `count` answers in all have come back (or the server closed it). */
async function connection(port: number) {
  let raw = Buffer.alloc(0);
  let closed = false;
  let wake = () => {};
  const answers = () => parseAnswers(raw.toString("latin1"));
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_socket, chunk) {
        raw = Buffer.concat([raw, chunk]);
        wake();
      },
      close() {
        closed = true;
        wake();
      },
    },
  });
  return {
    send: (payload: string) => socket.write(payload),
    async until(count: number): Promise<{ status: number; body: string }[]> {
      const deadline = Date.now() + 20_000;
      while (answers().length < count && !closed && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return answers();
    },
    closed: () => closed,
    end: () => socket.end(),
  };
}

/** Split a byte stream of HTTP/1.1 answers (Content-Length framed) into status and body. */
function parseAnswers(text: string): { status: number; body: string }[] {
  const out: { status: number; body: string }[] = [];
  let at = 0;
  for (;;) {
    const headEnd = text.indexOf("\r\n\r\n", at);
    if (headEnd === -1) return out;
    const head = text.slice(at, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (text.length < headEnd + 4 + length) return out;
    out.push({ status: Number(head.slice(9, 12)), body: text.slice(headEnd + 4, headEnd + 4 + length) });
    at = headEnd + 4 + length;
  }
}

describe("pipelined requests", () => {
  test(`${PAIRS} PUT/GET pairs sent at once on one connection, then pairs one at a time: every answer, in order, each GET seeing its PUT`, async () => {
    const t = await startTestServer();
    try {
      const key = t.key({ write: true });
      expect((await t.request("POST", "/v1/ingredients", { key, body: { name: "Maize", price: 100 } })).status).toBe(201);
      const host = `127.0.0.1:${t.service.port}`;
      const pair = (price: number) => {
        const body = JSON.stringify({ price });
        return (
          `PUT /v1/prices/Maize HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
          `GET /v1/ingredients/Maize HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${key}\r\n\r\n`
        );
      };
      const prices = (answers: { body: string }[]) => answers.map((a) => (JSON.parse(a.body) as { data: { price: number } }).data.price);

      const bulk = await connection(t.service.port);
      bulk.send(Array.from({ length: PAIRS }, (_, i) => pair(200 + i)).join(""));
      const all = await bulk.until(PAIRS * 2);
      expect(bulk.closed()).toBe(false);
      expect(all.map((a) => a.status)).toEqual(Array.from({ length: PAIRS * 2 }, () => 200));
      expect(prices(all)).toEqual(Array.from({ length: PAIRS }, (_, i) => [200 + i, 200 + i]).flat());
      bulk.end();

      // The issue's own case, repeated on a kept-alive connection: a pair, its answers, the next pair.
      const paced = await connection(t.service.port);
      for (let i = 0; i < 20; i++) {
        paced.send(pair(500 + i));
        const answers = await paced.until(2 * (i + 1));
        expect({ i, closed: paced.closed(), answers: answers.length }).toEqual({ i, closed: false, answers: 2 * (i + 1) });
        expect(prices(answers.slice(-2))).toEqual([500 + i, 500 + i]);
      }
      paced.end();
    } finally {
      await t.stop();
    }
  }, 30_000);
});

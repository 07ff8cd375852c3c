/**
 * Issue 15, item 2: a receiver that answers with an endless body must not make the server buffer it.
 * The receiver streams 64 KiB chunks for as long as it is read (up to 1 GiB in all, so a server that
 * does buffer fails the test instead of taking the machine down).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { cli, eventually, spawnServe, tempDir } from "./helpers/harness.ts";

const DELIVERIES = 100;
const RSS_LIMIT_MB = 150;
const BUDGET_BYTES = 1024 ** 3;
const CHUNK = new Uint8Array(64 * 1024).fill(120);

interface Peer {
  open: boolean;
  buffer: string;
  /** The unwritten end of the frame being sent. */
  rest: Buffer | null;
}

/** Resident set size of a process, from /proc. */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return kb / 1024;
}

describe("a receiver with an endless answer", () => {
  test(`${DELIVERIES} deliveries to a receiver streaming an endless body: all delivered, the server stays under ${RSS_LIMIT_MB} MB`, async () => {
    const tmp = tempDir();
    let sent = 0;
    let requests = 0;
    // A raw TCP receiver, so what counts as sent is what the server's socket took (backpressure included).
    const frame = Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from("\r\n")]);
    const pump = (socket: Bun.Socket<Peer>) => {
      while (socket.data.open && sent < BUDGET_BYTES) {
        const next = socket.data.rest ?? frame;
        const written = socket.write(next);
        sent += written;
        socket.data.rest = written < next.length ? next.subarray(written) : null;
        if (socket.data.rest !== null) return; // the socket is full: drain brings us back
      }
    };
    const listen = (port: number) => Bun.listen<Peer>({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(socket) {
          socket.data = { open: true, buffer: "", rest: null };
        },
        data(socket, chunk) {
          socket.data.buffer += chunk.toString("latin1");
          const headEnd = socket.data.buffer.indexOf("\r\n\r\n");
          if (headEnd === -1) return;
          const length = Number(/content-length: *(\d+)/i.exec(socket.data.buffer.slice(0, headEnd))?.[1] ?? 0);
          if (socket.data.buffer.length < headEnd + 4 + length) return;
          socket.data.buffer = "";
          requests++;
          socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
          pump(socket);
        },
        drain(socket) {
          pump(socket);
        },
        close(socket) {
          socket.data.open = false;
        },
      },
    });
    // The receiver is down while the changes are made (attempts are refused and retried in about 5 s),
    // then comes up: the deliveries meet it one after another, not among the API writes.
    const probe = listen(0);
    const port = probe.port;
    probe.stop(true);
    let receiver: ReturnType<typeof listen> | null = null;
    const receiverUrl = `http://127.0.0.1:${port}/`;
    try {
      expect((await cli(["demo", "--data", tmp.dataPath])).code).toBe(0);
      const created = await cli(["key", "create", "--write", "--rate-limit", "100000", "--json", "--data", tmp.dataPath]);
      const writeKey = (JSON.parse(created.stdout) as { key: string }).key;
      expect((await cli(["webhook", "add", receiverUrl, "--data", tmp.dataPath])).code).toBe(0);
      const server = await spawnServe(tmp.dataPath);
      let peak = 0;
      try {
        const list = (await (await fetch(`${server.url}/v1/prices`, { headers: { "X-API-Key": writeKey } })).json()) as { data: { name: string; price: number }[] };
        const names = list.data.map((i) => i.name);
        for (let i = 0; i < DELIVERIES; i++) {
          const name = names[i % names.length]!;
          const res = await fetch(`${server.url}/v1/prices/${encodeURIComponent(name)}`, { method: "PUT", headers: { "X-API-Key": writeKey }, body: JSON.stringify({ price: 1000 + i }) });
          expect(res.status).toBe(200);
          peak = Math.max(peak, rssMb(server.proc.pid));
        }
        receiver = listen(port);
        await eventually(async () => {
          peak = Math.max(peak, rssMb(server.proc.pid));
          const out = await cli(["webhook", "deliveries", "--status", "delivered", "--limit", "1000", "--json", "--data", tmp.dataPath]);
          return out.stdout.split("\n").filter(Boolean).length >= DELIVERIES || sent >= BUDGET_BYTES;
        }, 60_000);
        peak = Math.max(peak, rssMb(server.proc.pid));
      } finally {
        await server.stop();
      }
      expect({ requests: requests >= DELIVERIES, peakUnderLimit: peak < RSS_LIMIT_MB, budgetLeft: sent < BUDGET_BYTES }).toEqual({ requests: true, peakUnderLimit: true, budgetLeft: true });
      console.log(`endless-body receiver: ${requests} requests, ${(sent / 1048576).toFixed(0)} MiB streamed to the server, peak RSS ${peak.toFixed(0)} MB`);
    } finally {
      receiver?.stop(true);
      tmp.cleanup();
    }
  }, 120_000);
});

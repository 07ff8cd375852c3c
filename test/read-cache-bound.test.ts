/**
 * Issue 29 item 3: the read cache is bounded by the bytes it holds, not by a count of entries. Filters
 * are caller-chosen: 2,000 distinct `GET /v1/prices?at=…` on a workspace of 500 ingredients with long names
 * build some 2,000 bodies of about 75 KB each, and the server keeps what its bound allows (src/http/app-caches.ts),
 * dropping the oldest first; a body is still served the same after it was dropped.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CACHE_BOUNDS } from "../src/http/app-caches.ts";
import { ReadCache } from "../src/http/read-cache.ts";
import { cli, spawnServe, tempDir } from "./helpers/harness.ts";

const INGREDIENTS = 500;
/** Enough that the bodies served are about three times the bound: unbounded, the process would keep them all. */
const READS = 3_000;
/** Requests in flight at once (the server answers them in turn; PostgreSQL runs their queries side by side). */
const IN_FLIGHT = 4;

/** Every sample of one metric in an exposition, by its label set. */
function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (m) out.set(m[1] ?? "", Number(m[2]));
  }
  return out;
}

describe("the read cache's bound", () => {
  test("evicts the oldest entries to stay within its bytes, and keeps nothing bigger than the bound", () => {
    const cache = new ReadCache<string>(100, (key, value) => key.length + value.length);
    for (let i = 0; i < 30; i++) cache.put(1, `k${i}`.padEnd(5), "x".repeat(15));
    expect(cache.bytes).toBeLessThanOrEqual(100);
    expect(cache.bytes).toBe(100);
    expect(cache.peek(1, "k0".padEnd(5))).toBeUndefined();
    expect(cache.peek(1, "k29".padEnd(5))).toBe("x".repeat(15));
    expect(cache.put(1, "huge", "y".repeat(200))).toBe("y".repeat(200));
    expect(cache.peek(1, "huge")).toBeUndefined();
    expect(cache.bytes).toBe(100);
    // A new generation empties it.
    expect(cache.peek(2, "k29".padEnd(5))).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  test(`${READS} distinct GET /v1/prices?at=… keep the server's caches within their bound, and answers stay right`, async () => {
    const tmp = tempDir();
    const csv = join(tmp.dir, "many.csv");
    const rows = Array.from({ length: INGREDIENTS }, (_, i) => `Ingredient number ${String(i).padStart(4, "0")} of the read cache bound test named at length to make the body big,General,${100 + (i % 50)},true`);
    writeFileSync(csv, `name,category,price,inStock\n${rows.join("\n")}\n`);
    const server = await spawnServe(tmp.dataPath, { args: ["--metrics", "--access-log", "off"] });
    try {
      expect((await cli(["import", "ingredients", csv, "--data", tmp.dataPath])).code).toBe(0);
      const { key } = JSON.parse((await cli(["key", "create", "--rate-limit", "1000000", "--json", "--data", tmp.dataPath])).stdout) as { key: string };
      const get = (path: string) => fetch(server.url + path, { headers: { "X-API-Key": key } });
      const metrics = async () => await (await fetch(server.url + "/metrics")).text();
      const rssBefore = samples(await metrics(), "process_resident_memory_bytes").get("")!;
      let served = 0;
      // Instants after the import (a day ahead, a second apart): each answer lists every ingredient.
      const instant = (i: number) => new Date(Date.now() + 86_400_000 + i * 1000).toISOString();
      const firstAt = instant(0);
      const first = await (await get(`/v1/prices?at=${firstAt}`)).text();
      // A few at a time: on PostgreSQL each answer is a query of its own, and one after another they
      // took over two minutes while other test files ran beside this one.
      for (let i = 1; i < READS; i += IN_FLIGHT) {
        const batch = Array.from({ length: Math.min(IN_FLIGHT, READS - i) }, (_, j) => get(`/v1/prices?at=${instant(i + j)}`));
        for (const res of await Promise.all(batch)) {
          expect(res.status).toBe(200);
          served += (await res.arrayBuffer()).byteLength;
        }
      }
      const text = await metrics();
      const rssAfter = samples(text, "process_resident_memory_bytes").get("")!;
      console.log(`RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, ${(rssAfter / 2 ** 20).toFixed(0)} MiB after ${READS} reads (${(served / 2 ** 20).toFixed(0)} MiB of bodies served)`);
      // What the process holds grew by less than three times the bound: the bound, plus garbage not yet
      // collected and SQLite's page cache, which alone were 36 to 76 MiB over runs of 2,000 reads (the
      // growth was 109 to 149 MiB, so twice the bound failed once on a quiet machine). Without a bound it
      // grows by every body kept: 313 MiB for 2,000 reads before issue 29, and more with each read.
      const bound = CACHE_BOUNDS.bodies + CACHE_BOUNDS.answered + CACHE_BOUNDS.keys + CACHE_BOUNDS.inputs;
      expect(rssAfter - rssBefore).toBeLessThan(3 * bound);
      // The bodies asked for far exceed the bound: the bound is what held them back.
      expect(served).toBeGreaterThan(2 * CACHE_BOUNDS.bodies);
      const held = samples(text, "feedbase_read_cache_bytes");
      expect(held.get('{cache="bodies"}')).toBeLessThanOrEqual(CACHE_BOUNDS.bodies);
      expect(held.get('{cache="bodies"}')).toBeGreaterThan(CACHE_BOUNDS.bodies / 2);
      expect(held.get('{cache="answered"}')).toBeLessThanOrEqual(CACHE_BOUNDS.answered);
      expect(held.get('{cache="keys"}')).toBeLessThanOrEqual(CACHE_BOUNDS.keys);
      // The first body was dropped long ago: built again, it is the same.
      expect(await (await get(`/v1/prices?at=${firstAt}`)).text()).toBe(first);
    } finally {
      await server.stop();
      tmp.cleanup();
    }
  }, 120_000);
});

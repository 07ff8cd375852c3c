/** Entries beyond this are dropped wholesale: filters are caller-chosen, so the key space is unbounded. */
const MAX_ENTRIES = 10_000;

/**
 * Values derived from the data (serialized bodies, key lookups) kept for as long as the data generation
 * holds (src/store/data-version.ts). A new generation empties the cache, so nothing stale is served
 * after a write has been acknowledged, by this process or an admin command in another.
 * @example const key = cache.peek(gen, header) ?? cache.put(gen, header, await lookUp(header))
 */
export class ReadCache<V> {
  private generation = -1;
  private readonly entries = new Map<string, V>();

  /** The value kept for `key` in this generation, if any. */
  peek(generation: number, key: string): V | undefined {
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    return this.entries.get(key);
  }

  /** Keep a value built in `generation`; one built from data that has changed since is returned but not kept. */
  put<T extends V>(generation: number, key: string, value: T): T {
    if (generation < this.generation) return value;
    if (generation > this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }
}

/**
 * An unambiguous cache key from the parts a body depends on (filter values are caller-chosen text,
 * so no separator character is safe; absent and empty filters must differ too).
 * @example cacheKey("prices", 1, undefined, true) // '["prices",1,null,true]'
 */
export const cacheKey = (...parts: unknown[]): string => JSON.stringify(parts);

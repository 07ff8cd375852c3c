/**
 * Values derived from the data (serialized bodies, key lookups) kept for as long as the data generation
 * holds (src/store/data-version.ts). A new generation empties the cache, so nothing stale is served
 * after a write has been acknowledged, by this process or an admin command in another. Filters are
 * caller-chosen, so the key space is unbounded: the cache is bounded by the bytes its entries hold
 * (as `weigh` counts them), and past the bound the oldest entries go first.
 * @example const cache = new ReadCache<KeyAuth>(1 << 20, (key) => 2 * key.length + 256); const found = cache.peek(gen, header) ?? cache.put(gen, header, await lookUp(header))
 */
export class ReadCache<V> {
  private generation = -1;
  /** In insertion order, which is the eviction order. */
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  /**
   * @param maxBytes what the entries may hold together
   * @param weigh the bytes one entry holds: its key (UTF-16, 2 bytes a character) and its value
   */
  constructor(
    readonly maxBytes: number,
    private readonly weigh: (key: string, value: V) => number,
  ) {}

  /** Bytes the entries hold now (by `weigh`), for metrics. */
  get bytes(): number {
    return this.used;
  }

  /** The value kept for `key` in this generation, if any. */
  peek(generation: number, key: string): V | undefined {
    if (generation !== this.generation) this.restart(generation);
    return this.entries.get(key)?.value;
  }

  /**
   * Keep a value built in `generation`, making room by dropping the oldest entries; one built from data
   * that has changed since, or bigger than the whole bound, is returned but not kept.
   */
  put<T extends V>(generation: number, key: string, value: T): T {
    if (generation < this.generation) return value;
    if (generation > this.generation) this.restart(generation);
    const bytes = this.weigh(key, value);
    if (bytes > this.maxBytes) return value;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.used -= old.bytes;
    }
    for (const [oldest, entry] of this.entries) {
      if (this.used + bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    return value;
  }

  private restart(generation: number): void {
    this.entries.clear();
    this.used = 0;
    this.generation = generation;
  }
}

/**
 * An unambiguous cache key from the parts a body depends on (filter values are caller-chosen text,
 * so no separator character is safe; absent and empty filters must differ too).
 * @example cacheKey("prices", 1, undefined, true) // '["prices",1,null,true]'
 */
export const cacheKey = (...parts: unknown[]): string => JSON.stringify(parts);

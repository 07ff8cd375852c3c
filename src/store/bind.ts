/** A table of store functions, each taking its connection first. */
type StoreFunctions<C> = Record<string, (conn: C, ...args: never[]) => unknown>;
type Op = (...args: unknown[]) => unknown;

/**
 * Every function of `table` turned into a named operation by `wrap`, which is handed the function
 * (connection first, arguments after) and returns what callers call without a connection: how the
 * backends and admin stores build their named operations from their store modules.
 * @example const read = operations(READS, (fn) => (...args) => fn(db, ...args))
 */
export function operations<C>(table: StoreFunctions<C>, wrap: (fn: (conn: C, ...args: unknown[]) => unknown, name: string) => Op): Record<string, Op> {
  const out: Record<string, Op> = {};
  for (const [name, fn] of Object.entries(table)) out[name] = wrap(fn as (conn: C, ...args: unknown[]) => unknown, name);
  return out;
}

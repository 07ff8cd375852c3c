/**
 * Statements of one transaction sent together (Bun.sql pipelines what is issued before the first answer
 * comes back): their results in order once every one has answered, or the first error. Unlike
 * `Promise.all` it never settles while a statement is still running, so nothing of a failed write goes
 * on behind the ROLLBACK TO SAVEPOINT that follows.
 * @example const [, watched] = await pipelined(tx`UPDATE …`.execute(), hasSubscriber(tx, 1, "formula.cost_changed"))
 */
export async function pipelined<T extends unknown[]>(...work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(work);
  for (const result of settled) if (result.status === "rejected") throw result.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as T;
}

/** Connections remembered at most; past it they are all forgotten (a forgotten one only commits sooner). */
const MAX_CONNECTIONS = 10_000;
/** Turns count up from 0, so a negative number cannot be one. */
const PIPELINED = -1;

/**
 * Tells whether a write may wait for the turn's shared commit or must commit before Bun reads on.
 *
 * Bun 1.3 closes a connection, answers lost, when it parses a pipelined request while the answer ahead
 * of it is still pending, and it parses it right after the current request's microtasks. Sharing a
 * commit means waiting past them, so only a write on a connection that has shown it waits for its
 * answers may share one: one that sent an earlier request, never two in the same event-loop turn.
 * A connection's first request, and every request of one that ever pipelined, commits at once.
 * docs/decisions.md#faults.
 * @example const watch = new PipelineWatch(); const mayShare = watch.note(`${ip.address}:${ip.port}`)
 */
export class PipelineWatch {
  private turn = 0;
  private turnCounting = false;
  /** Connection → the turn of its last request, or PIPELINED once it has sent two in one turn (for good). */
  private readonly lastTurn = new Map<string, number>();

  /** Record a request on `connection`; true when a write of it may wait for a shared commit. */
  note(connection: string): boolean {
    if (!this.turnCounting) {
      this.turnCounting = true;
      setImmediate(() => {
        this.turn++;
        this.turnCounting = false;
      });
    }
    // One map lookup per request on the way to every answer, cached GETs included.
    const last = this.lastTurn.get(connection);
    if (last === PIPELINED) return false;
    if (last === undefined) {
      if (this.lastTurn.size >= MAX_CONNECTIONS) this.lastTurn.clear();
      this.lastTurn.set(connection, this.turn);
      return false;
    }
    if (last === this.turn) {
      this.lastTurn.set(connection, PIPELINED);
      return false;
    }
    this.lastTurn.set(connection, this.turn);
    return true;
  }
}

/**
 * What the delivery loop does while outcomes cannot be written (a full disk, a database that went away):
 * attempts pause, doubling up to a limit, one log line per pause; and the deliveries whose outcome was
 * lost are remembered, so their claims (PostgreSQL) are given back as soon as the database answers
 * instead of holding their ingredient's later events until the lease ends (docs/decisions.md#webhooks).
 */
import type { Logger } from "../log.ts";
import type { DeliveryStore } from "./delivery-store.ts";

export interface PauseTuning {
  /** First pause after an outcome could not be written; each further failure doubles it. */
  outcomePauseMs: number;
  /** The longest pause. */
  outcomePauseMaxMs: number;
}

/** @example const pause = new OutcomePause(tuning, logger); if (pause.left(performance.now()) <= 0) await pause.giveBack(store) */
export class OutcomePause {
  /** performance.now() before which no attempt starts. */
  private pausedUntil = 0;
  private pauseMs = 0;
  /** Deliveries whose attempt ended but whose outcome could not be written: still claimed by this process. */
  private readonly unrecorded = new Set<string>();

  constructor(
    private readonly tuning: PauseTuning,
    private readonly logger: Logger,
  ) {}

  /** Milliseconds the pause still lasts at `now` (performance.now()); none when ≤ 0. */
  left(now: number): number {
    return this.pausedUntil - now;
  }

  /** An outcome could not be written: pause (unless paused already) and remember the delivery. */
  failed(deliveryId: string, error: unknown): void {
    this.unrecorded.add(deliveryId);
    const now = performance.now();
    if (now < this.pausedUntil) return;
    this.pauseMs = this.pauseMs === 0 ? this.tuning.outcomePauseMs : Math.min(this.pauseMs * 2, this.tuning.outcomePauseMaxMs);
    this.pausedUntil = now + this.pauseMs;
    this.logger.log("error", "webhook outcome could not be recorded; deliveries paused", { deliveryId, pauseMs: this.pauseMs, error: String(error) });
  }

  /** An outcome was written: writes work again. */
  recovered(): void {
    if (this.pauseMs === 0) return;
    this.pauseMs = 0;
    this.logger.log("info", "webhook outcomes recorded again; deliveries resumed", {});
  }

  /**
   * Give back the claims of the deliveries whose outcome was lost, so they (and what waits behind them)
   * go out again now; throws, keeping them, while the database does not answer. SQLite claims nothing.
   */
  async giveBack(store: DeliveryStore): Promise<void> {
    if (this.unrecorded.size === 0) return;
    const ids = [...this.unrecorded];
    if (store.unclaim) await store.unclaim(ids);
    for (const id of ids) this.unrecorded.delete(id);
  }
}

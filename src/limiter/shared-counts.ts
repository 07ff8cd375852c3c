import type { Clock } from "../domain/time.ts";
import type { CountRow, SharedCountStore } from "../store/rate-count-rows.ts";
import { DEFAULT_WINDOW_MS, type SharedWindow } from "./sliding-window.ts";

export interface SharedCountsOptions {
  /** This process among the instances; a new one each start, so a restarted instance's old counts still count. */
  instance: string;
  windowMs?: number;
  clock?: Clock;
  /** How often counts are exchanged; the cross-instance bound is what the others accept in about this long. */
  everyMs?: number;
  /**
   * Told when exchanges start failing (the database is away), once per outage, not every 100 ms; the
   * limiter goes on with what it last heard.
   */
  onError?: (error: unknown) => void;
  /** Told when an exchange succeeds again after `onError`. */
  onRecovered?: () => void;
}

/** Seconds a key's others' counts are kept by: instance → count. */
interface KeyOthers {
  total: number;
  seconds: Map<number, Map<string, number>>;
}

/**
 * A key's limit across instances on one database (docs/decisions.md#rate-limiting): each instance
 * decides alone, in memory, from its own exact window plus what the others accepted as of the last
 * exchange, so no request waits for the database. Every `everyMs` (100 ms) it writes what it accepted
 * since, per key and second, and reads what the others wrote. A key can therefore be accepted at most
 * its limit plus what the other instances accepted since the last exchange; with one instance the
 * limit is exact. A second counts while any part of it is in the window, so the rounding only refuses.
 * @example const counts = new SharedCounts(pgSharedCounts(sql), { instance: crypto.randomUUID() }); await counts.start()
 */
export class SharedCounts implements SharedWindow {
  private readonly windowMs: number;
  private readonly clock: Clock;
  private pending = new Map<string, Map<number, number>>();
  private readonly others = new Map<string, KeyOthers>();
  private since: string | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | null = null;
  private lastPrune = -Infinity;
  private failing = false;

  constructor(
    private readonly store: SharedCountStore,
    private readonly options: SharedCountsOptions,
  ) {
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.clock = options.clock ?? Date.now;
  }

  othersInWindow(keyId: string): number {
    return this.others.get(keyId)?.total ?? 0;
  }

  accepted(keyId: string, ms: number): void {
    const second = Math.floor(ms / 1000);
    let seconds = this.pending.get(keyId);
    if (seconds === undefined) this.pending.set(keyId, (seconds = new Map()));
    seconds.set(second, (seconds.get(second) ?? 0) + 1);
  }

  /** The first exchange (a restarted instance starts with everyone's counts), then one every `everyMs`. */
  async start(): Promise<void> {
    await this.exchange();
    this.timer = setInterval(() => void this.exchange(), this.options.everyMs ?? 100);
    this.timer.unref();
  }

  /** Stop exchanging, after one last write of what this instance accepted. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.exchange();
  }

  /** Write this instance's new counts, read the others', forget what left the window. One at a time. */
  exchange(): Promise<void> {
    this.running ??= this.exchangeOnce().finally(() => (this.running = null));
    return this.running;
  }

  private async exchangeOnce(): Promise<void> {
    const now = this.clock();
    const fromSecond = Math.floor((now - this.windowMs) / 1000);
    const sending = this.pending;
    this.pending = new Map();
    const rows: CountRow[] = [];
    for (const [keyId, seconds] of sending) for (const [second, count] of seconds) rows.push({ keyId, second, count });
    try {
      if (rows.length > 0) await this.store.add(this.options.instance, rows);
    } catch (error) {
      // Not written: send it with the next exchange.
      for (const row of rows) {
        let seconds = this.pending.get(row.keyId);
        if (seconds === undefined) this.pending.set(row.keyId, (seconds = new Map()));
        seconds.set(row.second, (seconds.get(row.second) ?? 0) + row.count);
      }
      this.failed(error);
      return;
    }
    try {
      const { counts, next } = await this.store.changes(this.options.instance, fromSecond, this.since);
      for (const row of counts) this.apply(row);
      this.since = next;
      if (now - this.lastPrune >= 60_000) {
        this.lastPrune = now;
        await this.store.prune(fromSecond);
      }
      if (this.failing) {
        this.failing = false;
        this.options.onRecovered?.();
      }
    } catch (error) {
      this.failed(error);
    }
    this.forgetBefore(fromSecond);
  }

  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.options.onError?.(error);
  }

  private apply(row: CountRow & { instance: string }): void {
    let key = this.others.get(row.keyId);
    if (key === undefined) this.others.set(row.keyId, (key = { total: 0, seconds: new Map() }));
    let byInstance = key.seconds.get(row.second);
    if (byInstance === undefined) key.seconds.set(row.second, (byInstance = new Map()));
    key.total += row.count - (byInstance.get(row.instance) ?? 0);
    byInstance.set(row.instance, row.count);
  }

  /** Drop seconds wholly out of the window (a second that ends after the cutoff still counts). */
  private forgetBefore(fromSecond: number): void {
    for (const [keyId, key] of this.others) {
      for (const [second, byInstance] of key.seconds) {
        if (second >= fromSecond) continue;
        for (const count of byInstance.values()) key.total -= count;
        key.seconds.delete(second);
      }
      if (key.seconds.size === 0) this.others.delete(keyId);
    }
  }
}

/**
 * The data generation on PostgreSQL (../data-version.ts is SQLite's): every transaction that changes
 * data notifies the `feedbase` channel, and a notification moves the generation here, whichever
 * process committed. Our own commits move it at once (`touch`), before their answer goes out. While
 * the listening connection is down a notification could be missed, so every `current()` is then a new
 * generation: nothing is served from cache until it is back (docs/decisions.md#serving-from-postgresql).
 */
import { SQL } from "bun";
import { redactUrl } from "./connect.ts";

/** The channel every transaction that changes data notifies (./transaction.ts). */
const CHANGES_CHANNEL = "feedbase";

/** Told when the listening connection goes (nothing is cached meanwhile) and when it is back; the URL comes redacted. */
export interface ListeningHooks {
  lost(database: string): void;
  back(): void;
}

/** @example const version = await PgDataVersion.start(url, { lost: (db) => log.warn(db), back: () => {} }); version.current() */
export class PgDataVersion {
  private generation = 0;
  private listening = false;
  private subscription: SQL.ListenSubscription | null = null;
  private readonly listener: SQL;

  private constructor(
    url: string,
    private readonly hooks: ListeningHooks,
  ) {
    // A client of its own with one connection, used for nothing else: its close is the listening connection's.
    this.listener = new SQL(url, {
      max: 1,
      onclose: () => {
        if (!this.listening) return;
        this.listening = false;
        this.hooks.lost(redactUrl(url));
      },
    });
  }

  /** Listen, resolving once the first LISTEN is acknowledged. */
  static async start(url: string, hooks: ListeningHooks): Promise<PgDataVersion> {
    const version = new PgDataVersion(url, hooks);
    try {
      version.subscription = await version.listener.listen(
        CHANGES_CHANNEL,
        () => version.generation++,
        () => version.listened(),
      );
    } catch (error) {
      await version.listener.close().catch(() => {});
      throw error;
    }
    return version;
  }

  /** (Re)subscribed: whatever was missed meanwhile is behind a new generation. */
  private listened(): void {
    const back = this.subscription !== null && !this.listening;
    this.listening = true;
    this.generation++;
    if (back) this.hooks.back();
  }

  current(): number {
    if (!this.listening) this.generation++;
    return this.generation;
  }

  /** Our own write committed: the notification may arrive after the answer. */
  touch(): void {
    this.generation++;
  }

  async close(): Promise<void> {
    this.listening = false;
    await this.subscription?.unlisten().catch(() => {});
    await this.listener.close().catch(() => {});
  }
}

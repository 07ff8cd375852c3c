/**
 * The delivery loop that `serve` runs (docs/decisions.md#webhooks): it sends the pending deliveries that the events'
 * transactions wrote, one attempt at a time per delivery, and records each outcome.
 *
 * Everything it knows lives in the database (./delivery-store.ts). A delivery's state changes only
 * after its attempt has finished, so a crash, a kill or an abandoned attempt at shutdown leaves it
 * pending and it is sent again at the next start (on PostgreSQL, once its lease ends): at-least-once,
 * de-duplicated by receivers on `webhook-id`.
 */
import { isoTime, systemClock, type Clock } from "../domain/time.ts";
import type { Logger } from "../log.ts";
import type { AttemptOutcome, DueDelivery, WebhookDisable } from "../store/deliveries.ts";
import { OutcomePause } from "./outcome-pause.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import { VERSION } from "../version.ts";
import { attemptVerdict, DEFAULT_RETRY_SCHEDULE } from "./retry.ts";
import { postSigned, type PostAnswer } from "./post.ts";
import { signedHeaders } from "./sign.ts";

/** Limits and timings; the defaults are those of docs/decisions.md#webhooks, tests shorten the slow ones. */
export interface DeliveryTuning {
  /** Seconds between attempts; its length is the number of retries. */
  retrySchedule: readonly number[];
  /** Delivered deliveries older than this are deleted. */
  retentionDays: number;
  /** One attempt's limit, connection to status line. */
  timeoutMs: number;
  /** How long `stop` lets attempts in flight finish before abandoning them. */
  stopGraceMs: number;
  /** Longest sleep between looks at the data file (retries made by the CLI, commits of other processes). */
  pollMs: number;
  /** Attempts in flight to one webhook at most: a slow receiver is not flooded. */
  perWebhook: number;
  /** Attempts in flight in all. */
  total: number;
  /** First pause after an outcome could not be written (a full disk); each further failure doubles it. */
  outcomePauseMs: number;
  /** The longest pause: while writes keep failing, one attempt per this interval probes for recovery. */
  outcomePauseMaxMs: number;
}

/** The values of docs/decisions.md#webhooks. @example startDeliveryLoop({ store, logger, tuning: { ...DEFAULT_TUNING, retrySchedule: [1, 1] } }) */
export const DEFAULT_TUNING: DeliveryTuning = {
  retrySchedule: DEFAULT_RETRY_SCHEDULE,
  retentionDays: 30,
  timeoutMs: 10_000,
  stopGraceMs: 5_000,
  // Half the 1 s docs/decisions.md#webhooks promises for a CLI retry, so a slow look still lands inside it.
  pollMs: 500,
  perWebhook: 4,
  total: 32,
  outcomePauseMs: 1_000,
  outcomePauseMaxMs: 60_000,
};

/** Input of {@link startDeliveryLoop}; `clock` dates attempts and decides what is due. */
export interface DeliveryLoopOptions {
  /** Due deliveries and outcomes: SQLite's or PostgreSQL's (./delivery-store.ts). */
  store: DeliveryStore;
  logger: Logger;
  clock?: Clock;
  tuning?: Partial<DeliveryTuning>;
  /** Told each attempt's outcome (for metrics). */
  onOutcome?: (outcome: "delivered" | "retry" | "failed" | "unrecorded") => void;
}

/** A running loop. */
export interface DeliveryLoop {
  /** Look for due deliveries now (after a commit); cheap, coalesced, safe to call often. */
  wake(): void;
  /** Stop starting attempts, give those in flight up to `stopGraceMs`, abandon the rest (they stay pending). */
  stop(): Promise<void>;
  /** `performance.now()` of the last look for due deliveries (readiness: the loop is alive). */
  lastRanAt(): number;
}

interface InFlight {
  webhookId: string;
  event: string;
  attempt: number;
  controller: AbortController;
  done: Promise<void>;
}

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Start delivering: looks at once (deliveries left pending by a previous run go first), then
 * whenever woken and at least every `pollMs`.
 *
 * @example const loop = startDeliveryLoop({ store: sqliteDeliveryStore(db, writes), logger, clock }); // wake it after commits that record events; await loop.stop() at shutdown
 */
export function startDeliveryLoop(options: DeliveryLoopOptions): DeliveryLoop {
  const { store, logger } = options;
  const clock = options.clock ?? systemClock;
  const tuning: DeliveryTuning = { ...DEFAULT_TUNING, ...options.tuning };

  const inFlight = new Map<string, InFlight>();
  const perWebhook = new Map<string, number>();
  let stopping = false;
  // Set once stop() has given up on the attempts still running: their outcomes are no longer written.
  let abandoned = false;
  let scanQueued = false;
  // A look in progress (it may wait for the database): a wake meanwhile asks for another right after.
  let scanning = false;
  let rescan = false;
  let lastScan: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastPrune = -Infinity;
  let lastRanAt = performance.now();
  // While outcomes cannot be written (a full disk, a lost database), attempts pause.
  const pause = new OutcomePause(tuning, logger);
  let scanFailing = false;

  function wake(): void {
    if (stopping) return;
    if (scanning) rescan = true;
    if (scanning || scanQueued) return;
    scanQueued = true;
    // After the current turn: the commit's HTTP answer goes out first.
    setImmediate(() => (lastScan = scan()));
  }

  async function scan(): Promise<void> {
    scanQueued = false;
    if (stopping) return;
    scanning = true;
    clearTimeout(timer);
    let delay = tuning.pollMs;
    lastRanAt = performance.now();
    const paused = pause.left(lastRanAt);
    try {
      const now = clock();
      await prune(now);
      if (paused > 0) delay = Math.min(delay, paused);
      else {
        await pause.giveBack(store);
        await fill(now);
        const next = await store.nextDueAfter(now);
        if (next !== null) delay = Math.min(delay, Math.max(0, next - now));
      }
      if (scanFailing) logger.log("info", "webhook delivery scans work again");
      scanFailing = false;
    } catch (error) {
      // A busy data file (an admin command holding the lock), a lost connection, a transient I/O error:
      // look again at the next poll, saying so once per outage rather than at every poll.
      if (!scanFailing) logger.log("error", "webhook delivery scan failed; retrying until it works", { error: String(error) });
      scanFailing = true;
    }
    scanning = false;
    if (stopping) return;
    timer = setTimeout(wake, rescan ? 0 : delay);
    rescan = false;
  }

  async function prune(now: number): Promise<void> {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    const removed = await store.prune(isoTime(now - tuning.retentionDays * DAY_MS));
    if (removed > 0) logger.log("info", "pruned delivered webhook deliveries", { removed, retentionDays: tuning.retentionDays });
  }

  async function fill(now: number): Promise<void> {
    if (inFlight.size >= tuning.total) return;
    // Fewest attempts in flight first, so a hanging receiver cannot take the shared slots from the others.
    const webhooks = (await store.webhooksWithDue(now)).sort((a, b) => (perWebhook.get(a) ?? 0) - (perWebhook.get(b) ?? 0));
    for (const webhookId of webhooks) {
      const busy = perWebhook.get(webhookId) ?? 0;
      let free = Math.min(tuning.perWebhook - busy, tuning.total - inFlight.size);
      if (free <= 0) continue;
      for (const delivery of await store.take(webhookId, now, free, busy)) {
        if (free === 0 || stopping) break;
        if (inFlight.has(delivery.id)) continue;
        start(delivery);
        free--;
      }
      if (inFlight.size >= tuning.total) return;
    }
  }

  function start(delivery: DueDelivery): void {
    const controller = new AbortController();
    perWebhook.set(delivery.webhookId, (perWebhook.get(delivery.webhookId) ?? 0) + 1);
    const done = attempt(delivery, controller)
      .then(
        () => pause.recovered(),
        (error) => {
          options.onOutcome?.("unrecorded");
          pause.failed(delivery.id, error);
        },
      )
      .finally(() => {
        inFlight.delete(delivery.id);
        const left = (perWebhook.get(delivery.webhookId) ?? 1) - 1;
        if (left === 0) perWebhook.delete(delivery.webhookId);
        else perWebhook.set(delivery.webhookId, left);
        // A slot is free, and later events for the same ingredient may no longer wait.
        wake();
      });
    inFlight.set(delivery.id, { webhookId: delivery.webhookId, event: delivery.event, attempt: delivery.attempts + 1, controller, done });
  }

  function send(delivery: DueDelivery, controller: AbortController): Promise<PostAnswer> {
    // Signed at send time with the webhook's current secret; the body is the stored bytes, unchanged.
    const headers = signedHeaders({
      secret: delivery.secret,
      deliveryId: delivery.id,
      event: delivery.event,
      eventId: delivery.eventId,
      body: delivery.payload,
      nowSeconds: Math.floor(clock() / 1000),
      version: VERSION,
    });
    // Only the status matters; the receiver's body is not read.
    return postSigned(delivery.url, headers, delivery.payload, { timeoutMs: tuning.timeoutMs, signal: controller.signal });
  }

  /**
   * The attempt keeps its slot until its outcome is written, so no scan can take the delivery again
   * before then; the loop looks again after the commit (a later event for the same ingredient may be
   * free to go now).
   */
  function persist(outcome: AttemptOutcome, disable: WebhookDisable | null): Promise<boolean> {
    return store.finish(outcome, disable, wake);
  }

  async function attempt(delivery: DueDelivery, controller: AbortController): Promise<void> {
    const started = performance.now();
    const startedAt = isoTime(clock());
    const answer = await send(delivery, controller);
    const ms = Math.round(performance.now() - started);
    // Left pending on purpose: the attempt is sent again after the restart.
    if (abandoned) return;

    const number = delivery.attempts + 1;
    const nowMs = clock();
    const now = isoTime(nowMs);
    const { status, nextAttemptAt, disable: gone } = attemptVerdict(answer, number, tuning.retrySchedule, nowMs);
    const ok = status === "delivered";
    const outcome = { id: delivery.id, attemptsBefore: delivery.attempts, status, nextAttemptAt, lastStatus: answer.status, lastError: answer.error, now, startedAt, ms };
    const recorded = await persist(outcome, gone ? { webhookId: delivery.webhookId, reason: `receiver answered 410 Gone at ${now}` } : null);
    if (abandoned) return;
    options.onOutcome?.(status === "pending" ? "retry" : status);
    logger.log(ok ? "info" : "warn", "webhook attempt", {
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      event: delivery.event,
      attempt: number,
      status: answer.status,
      error: answer.error,
      ms,
      result: status === "pending" ? "retry" : status,
      ...(status === "pending" ? { nextAttemptAt: isoTime(nextAttemptAt) } : {}),
    });
    if (gone && recorded) logger.log("warn", "webhook disabled", { webhookId: delivery.webhookId, reason: "receiver answered 410 Gone" });
  }

  wake();

  return {
    wake,
    lastRanAt: () => lastRanAt,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      if (inFlight.size > 0) {
        let grace: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.all([...inFlight.values()].map((f) => f.done)),
          new Promise<void>((resolve) => (grace = setTimeout(resolve, tuning.stopGraceMs))),
        ]);
        clearTimeout(grace);
      }
      abandoned = true;
      for (const [deliveryId, f] of inFlight) {
        logger.log("warn", "webhook attempt abandoned at shutdown", { deliveryId, webhookId: f.webhookId, event: f.event, attempt: f.attempt });
        f.controller.abort();
      }
      await lastScan;
      await store.release().catch((error: unknown) => logger.log("error", "webhook claims could not be released", { error: String(error) }));
    },
  };
}

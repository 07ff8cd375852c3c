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
import { attemptVerdict } from "./retry.ts";
import { DEFAULT_TUNING, type DeliveryTuning } from "./delivery-tuning.ts";
import { postSigned, type PostAnswer } from "./post.ts";
import { signedHeaders } from "./sign.ts";

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
  const loop = new DeliveryRunner(options);
  loop.wake();
  return loop;
}

/**
 * Where the loop is in its life: delivering; stopping (no new attempts, those in flight have their
 * grace); abandoned (stop gave up on the attempts still running: their outcomes are no longer written).
 */
type Life = "running" | "stopping" | "abandoned";
/**
 * Its look for due deliveries: none planned; queued (after the current turn); looking (it may wait for
 * the database); looking, and woken meanwhile, so another look follows at once.
 */
type Look = "idle" | "queued" | "looking" | "looking, again after";

/** The loop's state, each part named: its life, its look, the attempts in flight, its timers and its health. */
class DeliveryRunner implements DeliveryLoop {
  private readonly store: DeliveryStore;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly tuning: DeliveryTuning;
  private life: Life = "running";
  private look: Look = "idle";
  /** The look in progress or last made: stop waits for it. */
  private lastLook: Promise<void> = Promise.resolve();
  /** The next poll. */
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly perWebhook = new Map<string, number>();
  /** The clock's time of the last prune of delivered deliveries. */
  private lastPrune = -Infinity;
  /** `performance.now()` of the last look (readiness). */
  private lastLookAt = performance.now();
  /** While outcomes cannot be written (a full disk, a lost database), attempts pause. */
  private readonly pause: OutcomePause;
  /** Looks fail (said once per outage). */
  private looksFailing = false;

  constructor(private readonly options: DeliveryLoopOptions) {
    this.store = options.store;
    this.logger = options.logger;
    this.clock = options.clock ?? systemClock;
    this.tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.pause = new OutcomePause(this.tuning, this.logger);
  }

  /** Bound: handed to timers and to the store as the after-commit wake. */
  readonly wake = (): void => {
    if (this.life !== "running") return;
    if (this.look === "looking") this.look = "looking, again after";
    if (this.look !== "idle") return;
    this.look = "queued";
    // After the current turn: the commit's HTTP answer goes out first.
    setImmediate(() => (this.lastLook = this.scan()));
  };

  lastRanAt(): number {
    return this.lastLookAt;
  }

  private async scan(): Promise<void> {
    this.look = "idle";
    if (this.life !== "running") return;
    this.look = "looking";
    clearTimeout(this.timer);
    let delay = this.tuning.pollMs;
    this.lastLookAt = performance.now();
    const paused = this.pause.left(this.lastLookAt);
    try {
      const now = this.clock();
      await this.prune(now);
      if (paused > 0) delay = Math.min(delay, paused);
      else {
        await this.pause.giveBack(this.store);
        await this.fill(now);
        const next = await this.store.nextDueAfter(now);
        if (next !== null) delay = Math.min(delay, Math.max(0, next - now));
      }
      if (this.looksFailing) this.logger.log("info", "webhook delivery scans work again");
      this.looksFailing = false;
    } catch (error) {
      // A busy data file (an admin command holding the lock), a lost connection, a transient I/O error:
      // look again at the next poll, saying so once per outage rather than at every poll.
      if (!this.looksFailing) this.logger.log("error", "webhook delivery scan failed; retrying until it works", { error: String(error) });
      this.looksFailing = true;
    }
    const again = this.endLook();
    if (this.life !== "running") return;
    this.timer = setTimeout(this.wake, again ? 0 : delay);
  }

  /** The look ends: whether it was woken meanwhile (then another follows at once). */
  private endLook(): boolean {
    const again = this.look === "looking, again after";
    this.look = "idle";
    return again;
  }

  /** Whether stop gave up on the attempts in flight (read after each wait: it may have meanwhile). */
  private get abandoned(): boolean {
    return this.life === "abandoned";
  }

  private async prune(now: number): Promise<void> {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const { retentionDays } = this.tuning;
    const removed = await this.store.prune(isoTime(now - retentionDays * DAY_MS));
    if (removed > 0) this.logger.log("info", "pruned delivered webhook deliveries", { removed, retentionDays });
  }

  private async fill(now: number): Promise<void> {
    const { inFlight, perWebhook, tuning } = this;
    if (inFlight.size >= tuning.total) return;
    // Fewest attempts in flight first, so a hanging receiver cannot take the shared slots from the others.
    const webhooks = (await this.store.webhooksWithDue(now)).sort((a, b) => (perWebhook.get(a) ?? 0) - (perWebhook.get(b) ?? 0));
    for (const webhookId of webhooks) {
      const busy = perWebhook.get(webhookId) ?? 0;
      let free = Math.min(tuning.perWebhook - busy, tuning.total - inFlight.size);
      if (free <= 0) continue;
      for (const delivery of await this.store.take(webhookId, now, free, busy)) {
        if (free === 0 || this.life !== "running") break;
        if (inFlight.has(delivery.id)) continue;
        this.start(delivery);
        free--;
      }
      if (inFlight.size >= tuning.total) return;
    }
  }

  private start(delivery: DueDelivery): void {
    const { perWebhook } = this;
    const controller = new AbortController();
    perWebhook.set(delivery.webhookId, (perWebhook.get(delivery.webhookId) ?? 0) + 1);
    const done = this.attempt(delivery, controller)
      .then(
        () => this.pause.recovered(),
        (error) => {
          this.options.onOutcome?.("unrecorded");
          this.pause.failed(delivery.id, error);
        },
      )
      .finally(() => {
        this.inFlight.delete(delivery.id);
        const left = (perWebhook.get(delivery.webhookId) ?? 1) - 1;
        if (left === 0) perWebhook.delete(delivery.webhookId);
        else perWebhook.set(delivery.webhookId, left);
        // A slot is free, and later events for the same ingredient may no longer wait.
        this.wake();
      });
    this.inFlight.set(delivery.id, { webhookId: delivery.webhookId, event: delivery.event, attempt: delivery.attempts + 1, controller, done });
  }

  private send(delivery: DueDelivery, controller: AbortController): Promise<PostAnswer> {
    // Signed at send time with the webhook's current secret; the body is the stored bytes, unchanged.
    const headers = signedHeaders({
      secret: delivery.secret,
      deliveryId: delivery.id,
      event: delivery.event,
      eventId: delivery.eventId,
      body: delivery.payload,
      nowSeconds: Math.floor(this.clock() / 1000),
      version: VERSION,
    });
    // Only the status matters; the receiver's body is not read.
    return postSigned(delivery.url, headers, delivery.payload, { timeoutMs: this.tuning.timeoutMs, signal: controller.signal });
  }

  /**
   * The attempt keeps its slot until its outcome is written, so no scan can take the delivery again
   * before then; the loop looks again after the commit (a later event for the same ingredient may be
   * free to go now).
   */
  private async attempt(delivery: DueDelivery, controller: AbortController): Promise<void> {
    const started = performance.now();
    const startedAt = isoTime(this.clock());
    const answer = await this.send(delivery, controller);
    const ms = Math.round(performance.now() - started);
    // Left pending on purpose: the attempt is sent again after the restart.
    if (this.abandoned) return;

    const number = delivery.attempts + 1;
    const nowMs = this.clock();
    const now = isoTime(nowMs);
    const { status, nextAttemptAt, disable: gone } = attemptVerdict(answer, number, this.tuning.retrySchedule, nowMs);
    const outcome: AttemptOutcome = { id: delivery.id, attemptsBefore: delivery.attempts, status, nextAttemptAt, lastStatus: answer.status, lastError: answer.error, now, startedAt, ms };
    const disable: WebhookDisable | null = gone ? { webhookId: delivery.webhookId, reason: `receiver answered 410 Gone at ${now}` } : null;
    const recorded = await this.store.finish(outcome, disable, this.wake);
    if (this.abandoned) return;
    this.options.onOutcome?.(status === "pending" ? "retry" : status);
    this.logger.log(status === "delivered" ? "info" : "warn", "webhook attempt", {
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
    if (gone && recorded) this.logger.log("warn", "webhook disabled", { webhookId: delivery.webhookId, reason: "receiver answered 410 Gone" });
  }

  async stop(): Promise<void> {
    this.life = "stopping";
    clearTimeout(this.timer);
    if (this.inFlight.size > 0) {
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all([...this.inFlight.values()].map((f) => f.done)),
        new Promise<void>((resolve) => (grace = setTimeout(resolve, this.tuning.stopGraceMs))),
      ]);
      clearTimeout(grace);
    }
    this.life = "abandoned";
    for (const [deliveryId, f] of this.inFlight) {
      this.logger.log("warn", "webhook attempt abandoned at shutdown", { deliveryId, webhookId: f.webhookId, event: f.event, attempt: f.attempt });
      f.controller.abort();
    }
    await this.lastLook;
    await this.store.release().catch((error: unknown) => this.logger.log("error", "webhook claims could not be released", { error: String(error) }));
  }
}

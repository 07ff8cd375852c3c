/** The delivery loop's limits and timings (./delivery-loop.ts); what serve's store needs of them too. */
import { DEFAULT_RETRY_SCHEDULE } from "./retry.ts";

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

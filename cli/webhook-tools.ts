import { Option, type Command } from "commander";
import type { AdminStore } from "../src/admin/ops.ts";
import { pingWebhook, type PingResult } from "../src/webhooks/ping.ts";
import { dataOption, intInRange, withExamples, withData, jsonOption } from "./common.ts";
import { CliFailure } from "./failure.ts";
import type { Io } from "./io.ts";

/** The start of a receiver's answer on one line. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** `HTTP 204 No Content in 12 ms` or `ECONNREFUSED: … after 3 ms`. */
function outcome(r: PingResult): string {
  return r.status !== null ? `${r.error ?? `HTTP ${r.status}`} in ${r.ms} ms` : `${r.error} after ${r.ms} ms`;
}

/**
 * Ping webhook `id` and print what came back; true when the receiver answered 2xx.
 * @example const ok = await reportPing(io, store, "wh_Zp8c1LmQ04sA", { json: false, timeoutMs: 10_000 })
 */
export async function reportPing(io: Io, store: AdminStore, id: string, options: { json: boolean; timeoutMs: number }): Promise<{ ok: boolean; result: PingResult }> {
  const target = await store.requireWebhookTarget(id);
  const result = await pingWebhook(target, { nowMs: Date.now(), timeoutMs: options.timeoutMs });
  const ok = result.error === null;
  if (!options.json) {
    const lines = [`Ping ${result.id} to ${target.url}: ${ok ? "answered " : "failed, "}${outcome(result)}`];
    if (result.bodyStart !== "") lines.push(`  body: ${oneLine(result.bodyStart)}`);
    io.out(lines.join("\n") + "\n");
  }
  return { ok, result };
}

/** The ping's fields as `--json` prints them. @example JSON.stringify(pingJson(result)) */
export const pingJson = (r: PingResult) => ({ id: r.id, status: r.status, error: r.error, ms: r.ms, body: r.bodyStart });

const timeoutOption = () => new Option("--timeout <seconds>", "how long to wait for the answer").default(10).argParser(intInRange("--timeout", 1, 60));

/**
 * `webhook ping` and `webhook deliveries show`: the tools an integrator's first hour needs.
 * @example registerWebhookTools(group, deliveriesCommand)
 */
export function registerWebhookTools(group: Command, deliveries: Command, io: Io): void {
  withExamples(
    group
      .command("ping <id>")
      .description("send a signed ping event now (X-Webhook-Event: ping, both signatures) and print the answer: status, time, start of the body; exit 1 unless 2xx")
      .addOption(timeoutOption())
      .addOption(jsonOption("print one JSON object"))
      .addOption(dataOption())
      .action(
        async (id: string, opts: { timeout: number; json?: boolean; data: string }) => {
          const { ok, result } = await withData(opts, ({ store }) => reportPing(io, store, id, { json: Boolean(opts.json), timeoutMs: opts.timeout * 1000 }));
          if (opts.json) io.out(JSON.stringify({ webhook: id, ...pingJson(result) }) + "\n");
          if (!ok) throw new CliFailure(`The receiver of ${id} did not accept the ping: ${outcome(result)}`);
        },
      ),
    ["feedbase webhook ping wh_Zp8c1LmQ04sA", "feedbase webhook ping wh_Zp8c1LmQ04sA --timeout 3 --json"],
  );

  withExamples(
    deliveries
      .command("show <deliveryId>")
      .description("one delivery and every attempt made for it (time, status code or error, ms), admin retries included")
      .addOption(jsonOption("print one JSON object, attempts included"))
      .addOption(dataOption())
      .action(
        (id: string, opts: { json?: boolean; data: string }) => {
          return withData(opts, async ({ store }) => {
            const [delivery] = await store.listDeliveries({ id, limit: 1 });
            if (!delivery) throw new CliFailure(`No delivery with id ${id} (see feedbase webhook deliveries)`);
            const attempts = await store.listAttempts(id);
            if (opts.json) {
              io.out(JSON.stringify({ ...delivery, attemptHistory: attempts }) + "\n");
              return;
            }
            const head = [
              `Delivery:  ${delivery.id} (webhook ${delivery.webhookId})`,
              `Event:     ${delivery.event} for ${delivery.ingredient}, created ${delivery.createdAt}`,
              `Status:    ${delivery.status}${delivery.nextAttemptAt ? `, next attempt ${delivery.nextAttemptAt}` : ""} (${delivery.attempts} on the current schedule)`,
              `Attempts:`,
            ];
            const rows = attempts.map((a) => `  ${String(a.number).padStart(3)}  ${a.at}  ${String(a.ms).padStart(6)} ms  ${a.error ?? `HTTP ${a.status}`}`);
            io.out([...head, ...(rows.length > 0 ? rows : ["  (none yet)"])].join("\n") + "\n");
          });
        },
      ),
    ["feedbase webhook deliveries show dlv_0aQ7vM2xPp9kLr3B", "feedbase webhook deliveries show dlv_0aQ7vM2xPp9kLr3B --json"],
  );
}

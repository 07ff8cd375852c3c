import { InvalidArgumentError, Option, type Command } from "commander";
import { isoTime } from "../src/domain/time.ts";
import { EVENT_TYPES, OPT_IN_EVENTS, type EventType } from "../src/domain/events.ts";
import type { DeliveryStatus } from "../src/store/deliveries.ts";
import { parseRetrySchedule } from "../src/webhooks/retry.ts";
import { generateSecret } from "../src/webhooks/secret.ts";
import { pingJson, registerWebhookTools, reportPing } from "./webhook-tools.ts";
import { dataOption, intInRange, oneOf, printRows, suppliedSecret, withData, withExamples, workspaceOption, jsonOption } from "./common.ts";
import { CliFailure, UsageError } from "./failure.ts";
import type { Io } from "./io.ts";
import { checkWebhookUrl } from "../src/webhooks/url-rules.ts";

/**
 * `--retry-schedule` with env `FEEDBASE_RETRY_SCHEDULE`, for `serve`: a test knob, harmless in production.
 * @example command.addOption(retryScheduleOption())
 */
export function retryScheduleOption(): Option {
  return new Option("--retry-schedule <seconds>", "webhook retry delays, comma-separated seconds (a test knob; default 5,60,300,1800,7200,21600,43200)")
    .env("FEEDBASE_RETRY_SCHEDULE")
    .argParser((value: string) => {
      try {
        return parseRetrySchedule(value);
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message);
      }
    });
}

const DEFAULT_EVENTS = EVENT_TYPES.filter((e) => !OPT_IN_EVENTS.includes(e)).join(", ");

function parseEvents(value: string): EventType[] {
  const names = [...new Set(value.split(",").map((e) => e.trim().toLowerCase()))];
  for (const name of names) {
    if (!(EVENT_TYPES as readonly string[]).includes(name)) throw new InvalidArgumentError(`Unknown event "${name}" (events: ${EVENT_TYPES.join(", ")})`);
  }
  return names as EventType[];
}

function requireHttpUrl(text: string): string {
  const checked = checkWebhookUrl(text);
  if ("problem" in checked) throw new UsageError(checked.problem);
  return checked.url;
}

const secretFileHelp = "read the secret from this file (default: env FEEDBASE_WEBHOOK_SECRET, else a new one is generated)";

/** `feedbase webhook ...`: register receivers and look after their deliveries. Only `add` and `rotate-secret` print a secret. */
export function registerWebhook(program: Command, io: Io): void {
  const group = program.command("webhook").description("signed webhooks: register receivers, inspect and retry deliveries");

  withExamples(
    group
      .command("add <url>")
      .description("register a receiver; prints its id and signing secret")
      .addOption(workspaceOption("workspace whose events it receives"))
      .addOption(new Option("--events <list>", `only these events, comma-separated (${EVENT_TYPES.join(", ")}; default: all but the opt-in ${OPT_IN_EVENTS.join(", ")})`).argParser(parseEvents))
      .option("--secret-file <file>", secretFileHelp)
      .option("--ping", "then send it a signed ping and print the answer (the webhook stays registered whatever it is)")
      .addOption(jsonOption("print one JSON object (with --ping, its answer under ping)"))
      .addOption(dataOption())
      .action(
        async (target: string, opts: { workspace: string; events?: EventType[]; secretFile?: string; ping?: boolean; json?: boolean; data: string }) => {
          const url = requireHttpUrl(target);
          const secret = suppliedSecret(io, opts.secretFile) ?? generateSecret();
          return withData(opts, async ({ store, workspace }) => {
            const ws = await workspace();
            const events = opts.events ?? null;
            const id = await store.createWebhook({ workspaceId: ws.id, url, secret, events, now: isoTime(Date.now()) });
            if (!opts.json) {
              io.out(
                `Webhook: ${id}\nSecret:  ${secret}\nURL:     ${url} (events: ${events?.join(", ") ?? DEFAULT_EVENTS}; workspace ${ws.slug})\n` +
                  `Give the secret to the receiver now: only rotate-secret shows a secret again (a new one).\n`,
              );
            }
            const ping = opts.ping ? (await reportPing(io, store, id, { json: Boolean(opts.json), timeoutMs: 10_000 })).result : undefined;
            if (opts.json) {
              const pinged = ping ? { ping: pingJson(ping) } : {};
              io.out(JSON.stringify({ id, secret, url, workspace: ws.slug, events, ...pinged }) + "\n");
            }
          });
        },
      ),
    [
      "feedbase webhook add https://erp.example.com/hooks/feedbase",
      "feedbase webhook add https://mill.example.com/prices --events price.updated --secret-file /etc/feedbase/erp.secret --json",
      "feedbase webhook add http://127.0.0.1:9090/ --ping",
    ],
  );

  withExamples(
    group
      .command("list")
      .description("list webhooks: status (and why disabled), pending and failed deliveries; never a secret")
      .addOption(workspaceOption("only this workspace", null))
      .addOption(jsonOption("one JSON object per line (events: null means all but the opt-in ones)"))
      .addOption(dataOption())
      .action(
        (opts: { workspace?: string; json?: boolean; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            printRows(io,
              await store.listWebhooks(opts.workspace ? (await workspace()).id : undefined),
              [
                ["ID", (w) => w.id],
                ["WORKSPACE", (w) => w.workspace],
                ["URL", (w) => w.url],
                ["EVENTS", (w) => w.events?.join(",") ?? "default"],
                ["STATUS", (w) => (w.status === "enabled" ? "enabled" : `disabled (${w.disabledReason ?? "no reason given"})`)],
                ["PENDING", (w) => String(w.pending)],
                ["FAILED", (w) => String(w.failed)],
                ["CREATED", (w) => w.createdAt],
              ],
              opts.json,
            );
          });
        },
      ),
    ["feedbase webhook list", "feedbase webhook list --workspace default --json"],
  );

  withExamples(
    group
      .command("remove <id>")
      .description("delete a webhook; its pending deliveries are cancelled")
      .addOption(dataOption())
      .action(
        (id: string, opts: { data: string }) => {
          return withData(opts, async ({ store }) => {
            const cancelled = await store.removeWebhook(id);
            io.out(`Removed ${id} (${cancelled} pending ${cancelled === 1 ? "delivery" : "deliveries"} cancelled)\n`);
          });
        },
      ),
    ["feedbase webhook remove wh_Zp8c1LmQ04sA"],
  );

  withExamples(
    group
      .command("disable <id>")
      .description("stop delivering: no new deliveries, pending ones wait for enable")
      .addOption(dataOption())
      .action(
        async (id: string, opts: { data: string }) => {
          await withData(opts, ({ store }) => store.setWebhookEnabled(id, false, `disabled by an admin at ${isoTime(Date.now())}`));
          io.out(`Disabled ${id}\n`);
        },
      ),
    ["feedbase webhook disable wh_Zp8c1LmQ04sA"],
  );

  withExamples(
    group
      .command("enable <id>")
      .description("deliver again (also after a receiver's 410); pending deliveries resume")
      .addOption(dataOption())
      .action(
        (id: string, opts: { data: string }) => {
          return withData(opts, async ({ store }) => {
            await store.setWebhookEnabled(id, true);
            const pending = await store.pendingCount(id);
            io.out(`Enabled ${id} (${pending} pending ${pending === 1 ? "delivery resumes" : "deliveries resume"})\n`);
          });
        },
      ),
    ["feedbase webhook enable wh_Zp8c1LmQ04sA"],
  );

  withExamples(
    group
      .command("rotate-secret <id>")
      .description("replace the signing secret and print it; every later attempt, pending ones included, uses it")
      .option("--secret-file <file>", secretFileHelp)
      .addOption(jsonOption("print one JSON object"))
      .addOption(dataOption())
      .action(
        async (id: string, opts: { secretFile?: string; json?: boolean; data: string }) => {
          const secret = suppliedSecret(io, opts.secretFile) ?? generateSecret();
          await withData(opts, ({ store }) => store.setWebhookSecret(id, secret));
          if (opts.json) io.out(JSON.stringify({ id, secret }) + "\n");
          else io.out(`Webhook: ${id}\nSecret:  ${secret}\nEvery attempt from now on, pending deliveries included, is signed with it.\n`);
        },
      ),
    ["feedbase webhook rotate-secret wh_Zp8c1LmQ04sA", "feedbase webhook rotate-secret wh_Zp8c1LmQ04sA --secret-file new.secret --json"],
  );

  const deliveries = withExamples(
    group
      .command("deliveries")
      .description("list deliveries, newest event first: attempts, last status code and error, next attempt")
      .addOption(new Option("--status <status>", "only this status: pending, delivered or failed, any case").argParser(oneOf("--status", ["pending", "delivered", "failed"])))
      .addOption(new Option("--limit <n>", "at most this many").default(50).argParser(intInRange("--limit", 1, 100_000)))
      .option("--webhook <id>", "only this webhook's")
      .addOption(workspaceOption("only this workspace's", null))
      .addOption(jsonOption("one JSON object per line"))
      .addOption(dataOption())
      // `deliveries show <id> --data f`: the options after `show` are show's own.
      .enablePositionalOptions()
      .action(
        (opts: { status?: DeliveryStatus; limit: number; webhook?: string; workspace?: string; json?: boolean; data: string }) => {
          return withData(opts, async ({ store, workspace }) => {
            const rows = await store.listDeliveries({
              status: opts.status,
              limit: opts.limit,
              webhookId: opts.webhook,
              workspaceId: opts.workspace ? (await workspace()).id : undefined,
            });
            printRows(io,
              rows,
              [
                ["ID", (d) => d.id],
                ["WEBHOOK", (d) => d.webhookId],
                ["EVENT", (d) => d.event],
                ["INGREDIENT", (d) => d.ingredient],
                ["STATUS", (d) => d.status],
                ["ATTEMPTS", (d) => String(d.attempts)],
                ["LAST", (d) => (d.lastStatus === null ? "-" : String(d.lastStatus))],
                ["ERROR", (d) => d.lastError ?? ""],
                ["NEXT ATTEMPT", (d) => d.nextAttemptAt ?? ""],
                ["CREATED", (d) => d.createdAt],
              ],
              opts.json,
            );
          });
        },
      ),
    ["feedbase webhook deliveries --status failed", "feedbase webhook deliveries --webhook wh_Zp8c1LmQ04sA --limit 10 --json"],
  );

  withExamples(
    group
      .command("retry [deliveryIds...]")
      .description(
        "send deliveries again, picked up by the running server within 1 s: a failed or delivered one on a fresh schedule; " +
          "a pending one waiting on its backoff now, keeping its attempt count (earlier pending ones for its ingredient go first)",
      )
      .option("--failed", "every failed delivery")
      .option("--pending", "every pending delivery waiting on its backoff: due now, in order per ingredient")
      .option("--webhook <id>", "with --failed or --pending: only this webhook's")
      .addOption(dataOption())
      .action(
        (ids: string[], opts: { failed?: boolean; pending?: boolean; webhook?: string; data: string }) => {
          const modes = [ids.length > 0, Boolean(opts.failed), Boolean(opts.pending)].filter(Boolean).length;
          if (modes !== 1) throw new UsageError("give delivery ids, --failed or --pending (one of the three)");
          if (opts.webhook !== undefined && ids.length > 0) throw new UsageError("--webhook goes with --failed or --pending");
          return withData(opts, async ({ store }) => {
            const nowMs = Date.now();
            const plural = (n: number) => `${n} ${n === 1 ? "delivery" : "deliveries"}`;
            if (opts.failed) io.out(`Re-queued ${plural(await store.retryFailed(nowMs, isoTime(nowMs), opts.webhook))}\n`);
            else if (opts.pending) io.out(`Made ${plural(await store.retryPending(nowMs, isoTime(nowMs), opts.webhook))} due now\n`);
            else {
              const result = await store.retryDeliveries([...new Set(ids)], nowMs, isoTime(nowMs));
              const lines = [
                ...(result.requeued > 0 || result.dueNow === 0 ? [`Re-queued ${plural(result.requeued)}`] : []),
                ...(result.dueNow > 0 ? [`Made ${plural(result.dueNow)} due now (pending; earlier ones for the same ingredient go first)`] : []),
              ];
              io.out(lines.join("\n") + "\n");
            }
            // The loop sends only for enabled webhooks: a retry for a disabled one would wait without a word.
            const named = opts.webhook !== undefined ? [opts.webhook] : (await Promise.all(ids.map((id) => store.listDeliveries({ id, limit: 1 })))).flat().map((d) => d.webhookId);
            for (const hook of await store.listWebhooks()) {
              if (hook.status === "disabled" && hook.pending > 0 && (named.length === 0 || named.includes(hook.id))) {
                io.err(`note: ${hook.id} is disabled (${hook.disabledReason ?? "no reason given"}): its ${hook.pending} pending wait for feedbase webhook enable ${hook.id}\n`);
              }
            }
          });
        },
      ),
    [
      "feedbase webhook retry dlv_0aQ7vM2xPp9kLr3B dlv_7Hc2WmQ9xZr4TpLa",
      "feedbase webhook retry --failed",
      "feedbase webhook retry --pending --webhook wh_Zp8c1LmQ04sA   # the receiver is back: don't wait for the backoff",
    ],
  );

  registerWebhookTools(group, deliveries, io);
}

import { Option, type Command } from "commander";
import { formatEvent, startReceiver } from "../src/webhooks/receiver.ts";
import { UsageError, intInRange, withExamples } from "./common.ts";
import type { Io } from "./io.ts";
import { suppliedSecret } from "./webhook.ts";

/**
 * `feedbase receive`: the reference receiver, for checking a set-up end to end. Verified events go to
 * stdout one line each; refusals (401 on a bad signature) go to stderr.
 */
export function registerReceive(program: Command, io: Io): void {
  const command = program
    .command("receive")
    .description("run a reference webhook receiver: verifies both signatures, prints each event, answers 401 on a mismatch")
    .option("--secret-file <file>", "the webhook's secret (default: env FEEDBASE_WEBHOOK_SECRET)")
    .addOption(new Option("--port <n>", "port to listen on (0 picks a free one)").default(9090).argParser(intInRange("--port", 0, 65535)))
    .option("--host <address>", "address to bind", "127.0.0.1")
    .action(
      async (opts: { secretFile?: string; port: number; host: string }) => {
        const secret = suppliedSecret(io, opts.secretFile);
        if (secret === undefined) throw new UsageError("give the webhook's secret with --secret-file or env FEEDBASE_WEBHOOK_SECRET");
        const receiver = startReceiver({
          secret,
          port: opts.port,
          hostname: opts.host,
          onEvent: (event) => void io.out(formatEvent(event) + "\n"),
          onReject: (r) => void io.err(`rejected ${r.method} ${r.path}${r.deliveryId ? ` ${r.deliveryId}` : ""}: ${r.status} ${r.reason}\n`),
        });
        io.out(`Listening on ${receiver.url} (POST to any path; Ctrl-C stops)\n`);
        const stop = async () => {
          await receiver.stop();
          process.exit(0);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      },
    );
  withExamples(command, [
    "feedbase receive --secret-file erp.secret --port 9090   # then: feedbase webhook add http://127.0.0.1:9090/ --secret-file erp.secret",
    "FEEDBASE_WEBHOOK_SECRET=whsec_… feedbase receive",
  ]);
}

import { Option, type Command } from "commander";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatEvent, startReceiver, type Arrival } from "../src/webhooks/receiver.ts";
import { intInRange, oneOf, withExamples, checkedSecret, readSecretFile } from "./common.ts";
import { CliFailure, UsageError } from "./failure.ts";
import type { Io } from "./io.ts";

type PrintWhat = "summary" | "body" | "headers" | "all";

/**
 * The secrets a delivery may be signed with: each `--secret-file`, else the comma-separated
 * `FEEDBASE_WEBHOOK_SECRET`. Several, so a receiver accepts both sides of a rotation.
 * @example receiverSecrets(io, ["old.secret", "new.secret"])
 */
function receiverSecrets(io: Io, files: string[]): string[] {
  const secrets = files.length > 0 ? files.map(readSecretFile) : (io.env.FEEDBASE_WEBHOOK_SECRET ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (secrets.length === 0) throw new UsageError("give the webhook's secret with --secret-file (repeat it for several) or env FEEDBASE_WEBHOOK_SECRET (comma-separated)");
  return secrets.map(checkedSecret);
}

/** What arrived, raw, indented under the summary line: headers as sent, then the body bytes as text. */
function details(arrival: Arrival, what: PrintWhat): string {
  const lines: string[] = [];
  if (what === "headers" || what === "all") lines.push(...arrival.headers.map(([name, value]) => `  ${name}: ${value}`));
  if (what === "body" || what === "all") lines.push(`  ${new TextDecoder().decode(arrival.body)}`);
  return lines.map((l) => l + "\n").join("");
}

/**
 * Keep one arrival as `<time>-<webhook-id>.json` (method, path, verdict, headers, body as text) and
 * `.body` (the exact bytes), so verification code can be tested against real deliveries.
 */
function save(dir: string, arrival: Arrival): void {
  const id = (arrival.headers.find(([name]) => name === "webhook-id")?.[1] ?? "unsigned").replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  const stem = `${arrival.receivedAt.replace(/:/g, "-")}-${id}`;
  let name = stem;
  for (let n = 2; existsSync(join(dir, name + ".json")); n++) name = `${stem}-${n}`;
  const { body, ...rest } = arrival;
  writeFileSync(join(dir, name + ".body"), body);
  writeFileSync(join(dir, name + ".json"), JSON.stringify({ ...rest, headers: Object.fromEntries(rest.headers), body: new TextDecoder().decode(body) }, null, 2) + "\n");
}

/**
 * `feedbase receive`: the reference receiver, for checking a set-up end to end. Verified events go to
 * stdout one line each; refusals (401 on a bad signature) go to stderr.
 */
export function registerReceive(program: Command, io: Io): void {
  const command = program
    .command("receive")
    .description("run a reference webhook receiver: verifies both signatures, prints each event, answers 401 on a mismatch")
    .option("--secret-file <file>", "the webhook's secret; repeat it to accept several, e.g. the old and the new during a rotation (default: env FEEDBASE_WEBHOOK_SECRET, comma-separated)", (file: string, files: string[]) => [...files, file], [] as string[])
    .addOption(new Option("--print <what>", "also print what arrived, raw: body, headers or all (default: one line per request)").argParser(oneOf("--print", ["body", "headers", "all"])))
    .option("--save-dir <dir>", "write each request that arrives to <dir>: <time>-<webhook-id>.json (headers, body, verdict) and .body (the exact bytes)")
    .addOption(new Option("--port <n>", "port to listen on (0 picks a free one)").default(9090).argParser(intInRange("--port", 0, 65535)))
    .option("--host <address>", "address to bind", "127.0.0.1")
    .action(
      async (opts: { secretFile: string[]; print?: PrintWhat; saveDir?: string; port: number; host: string }) => {
        const secrets = receiverSecrets(io, opts.secretFile);
        const saveDir = opts.saveDir;
        if (saveDir !== undefined) {
          try {
            mkdirSync(saveDir, { recursive: true });
          } catch (error) {
            throw new CliFailure(`Cannot create --save-dir ${saveDir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
          }
        }
        const print = opts.print ?? "summary";
        const receiver = startReceiver({
          secrets,
          port: opts.port,
          hostname: opts.host,
          onEvent: (event) => void io.out(formatEvent(event) + "\n"),
          onReject: (r) => void io.err(`rejected ${r.method} ${r.path}${r.deliveryId ? ` ${r.deliveryId}` : ""}: ${r.status} ${r.reason}\n`),
          onArrival: (arrival) => {
            if (print !== "summary") (arrival.status === 204 ? io.out : io.err)(details(arrival, print));
            if (saveDir !== undefined) save(saveDir, arrival);
          },
        });
        io.out(
          `Listening on ${receiver.url} (POST to any path; ${secrets.length === 1 ? "1 secret" : `${secrets.length} secrets`}; Ctrl-C stops)\n`,
        );
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
    "feedbase receive --secret-file old.secret --secret-file new.secret --print all   # during a rotation",
    "FEEDBASE_WEBHOOK_SECRET=whsec_…,whsec_… feedbase receive --save-dir deliveries/",
  ]);
}

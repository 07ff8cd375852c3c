import { InvalidArgumentError, Option, type Command } from "commander";
import { readFileSync } from "node:fs";
import { DEFAULT_SOLVE_TIMEOUT_MS, PortInUseError, startService } from "../src/service.ts";
import { DEFAULT_DATABASE_CONNECTIONS } from "../src/store/pg/connect.ts";
import { retryScheduleOption } from "./webhook.ts";
import { LOG_LEVELS, type LogLevel } from "../src/log.ts";
import { dataOption, intInRange, onOff, oneOf, withExamples } from "./common.ts";
import { CliFailure } from "./failure.ts";
import { refuseOtherOwner } from "./owner.ts";
import { dataLocation, locationName } from "./location.ts";
import type { Io } from "./io.ts";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;

interface ServeOptions {
  data: string;
  database?: string;
  allowOtherOwner?: boolean;
  host: string;
  port: number;
  tlsCert?: string;
  tlsKey?: string;
  insecureHttp?: boolean;
  retentionDays: number;
  retrySchedule?: number[];
  logLevel: LogLevel;
  accessLog: boolean;
  metrics?: boolean;
  metricsTokenFile?: string;
  console: boolean;
  solveTimeout: number;
  solveWorkers?: number;
  databaseConnections: number;
}

/** `--solve-timeout`: seconds, decimals allowed, 0.1 to 600 (to milliseconds). */
function secondsOption(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || seconds < 0.1 || seconds > 600) throw new InvalidArgumentError("--solve-timeout must be a number of seconds from 0.1 to 600");
  return Math.round(seconds * 1000);
}

/** A file named by an option; a missing or unreadable one is refused in one line. */
function readOptionFile(option: string, file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
    throw new CliFailure(`Cannot read ${option} ${file}: ${cause}`);
  }
}

/** A PEM file named by an option; a non-PEM one is refused too. */
function readPem(option: string, file: string): string {
  const text = readOptionFile(option, file);
  if (!text.includes("-----BEGIN ")) throw new CliFailure(`${option} ${file} is not a PEM file (no -----BEGIN line)`);
  return text;
}

/** The metrics bearer token: the file's one word (a trailing newline is not part of it). */
function readToken(file: string): string {
  const token = readOptionFile("--metrics-token-file", file).trim();
  if (!/^\S+$/.test(token)) throw new CliFailure(`--metrics-token-file ${file} must hold one token (no spaces), and it is ${token === "" ? "empty" : "several words"}`);
  return token;
}

/** Start the service; the TLS library's refusal of a certificate or key becomes one line naming both files. */
async function start(options: Parameters<typeof startService>[0], opts: ServeOptions): ReturnType<typeof startService> {
  try {
    return await startService(options);
  } catch (error) {
    if (error instanceof PortInUseError) throw new CliFailure(error.message);
    const message = (error as Error).message ?? "";
    if (options.tls && /SSL|PEM|X509|key/i.test(message)) {
      throw new CliFailure(`TLS refused --tls-cert ${opts.tlsCert} / --tls-key ${opts.tlsKey}: ${message.replace(/\s+/g, " ")}`);
    }
    throw error;
  }
}

/** `feedbase serve`: the API (and webhook delivery) until SIGINT/SIGTERM. */
export function registerServe(program: Command, io: Io): void {
  const command = program
    .command("serve")
    .description("serve the v1 HTTP API and deliver webhooks (creates the data file if missing; --database: from PostgreSQL)")
    .addOption(dataOption())
    .addOption(new Option("--host <address>", "address to bind").env("FEEDBASE_HOST").default("127.0.0.1"))
    .addOption(new Option("--port <n>", "port to listen on (0 picks a free one)").env("FEEDBASE_PORT").default(8080).argParser(intInRange("--port", 0, 65535)))
    .addOption(new Option("--tls-cert <file>", "PEM certificate: serve HTTPS").env("FEEDBASE_TLS_CERT"))
    .addOption(new Option("--tls-key <file>", "PEM private key for --tls-cert").env("FEEDBASE_TLS_KEY"))
    .addOption(new Option("--insecure-http [on|off]", "allow plain HTTP on a non-loopback address").env("FEEDBASE_INSECURE_HTTP").argParser(onOff("--insecure-http")))
    .addOption(
      new Option("--retention-days <n>", "delete delivered webhook deliveries after this many days")
        .env("FEEDBASE_RETENTION_DAYS")
        .default(30)
        .argParser(intInRange("--retention-days", 1, 36_500)),
    )
    .addOption(retryScheduleOption())
    .addOption(new Option("--log-level <level>", `least severe level logged: ${LOG_LEVELS.join(", ")}`).env("FEEDBASE_LOG_LEVEL").default("info").argParser(oneOf("--log-level", LOG_LEVELS)))
    .addOption(
      new Option("--access-log <on|off>", "one info line per request (rate-limit refusals are logged at warn either way)")
        .env("FEEDBASE_ACCESS_LOG")
        .default(true, "on")
        .argParser(onOff("--access-log")),
    )
    .addOption(new Option("--metrics [on|off]", "serve Prometheus metrics at GET /metrics").env("FEEDBASE_METRICS").argParser(onOff("--metrics")))
    .addOption(new Option("--metrics-token-file <file>", "with --metrics: answer only Authorization: Bearer <the file's token>").env("FEEDBASE_METRICS_TOKEN_FILE"))
    .addOption(new Option("--console <on|off>", "serve the web console at / and /console/ (off: 404 there)").env("FEEDBASE_CONSOLE").default(true, "on").argParser(onOff("--console")))
    .addOption(
      new Option("--solve-timeout <seconds>", "time limit of one solve (optimize, one formula of the worklist): past it the request gets 503 and the solver worker is replaced")
        .env("FEEDBASE_SOLVE_TIMEOUT")
        .default(DEFAULT_SOLVE_TIMEOUT_MS, String(DEFAULT_SOLVE_TIMEOUT_MS / 1000))
        .argParser(secondsOption),
    )
    .addOption(new Option("--solve-workers <n>", "solver worker threads (default: one per core but one, at least 1)").env("FEEDBASE_SOLVE_WORKERS").argParser(intInRange("--solve-workers", 1, 64)))
    .addOption(
      new Option("--database-connections <n>", "with --database: connections to PostgreSQL this instance keeps open, each a server process")
        .env("FEEDBASE_DATABASE_CONNECTIONS")
        .default(DEFAULT_DATABASE_CONNECTIONS)
        .argParser(intInRange("--database-connections", 2, 100)),
    )
    .action(
      async (opts: ServeOptions) => {
        const data = dataLocation(opts);
        if (data.kind === "sqlite") refuseOtherOwner(opts);
        // From the environment it may be a shared file's setting for every instance; on the command line it is a mistake.
        if (data.kind === "sqlite" && command.getOptionValueSource("databaseConnections") === "cli") throw new CliFailure("--database-connections goes with --database (PostgreSQL)");
        if (Boolean(opts.tlsCert) !== Boolean(opts.tlsKey)) throw new CliFailure("--tls-cert and --tls-key go together");
        if (!opts.tlsCert && !opts.insecureHttp && !LOOPBACK.test(opts.host)) {
          throw new CliFailure(
            `Refusing plain HTTP on ${opts.host}: give --tls-cert and --tls-key, put a TLS proxy on this host and bind 127.0.0.1, or pass --insecure-http`,
          );
        }
        const tls = opts.tlsCert && opts.tlsKey ? { cert: readPem("--tls-cert", opts.tlsCert), key: readPem("--tls-key", opts.tlsKey) } : undefined;
        if (opts.metricsTokenFile !== undefined && !opts.metrics) throw new CliFailure("--metrics-token-file goes with --metrics");
        const metrics = opts.metrics ? { token: opts.metricsTokenFile === undefined ? null : readToken(opts.metricsTokenFile) } : undefined;
        const webhooks = { retentionDays: opts.retentionDays, ...(opts.retrySchedule ? { retrySchedule: opts.retrySchedule } : {}) };
        const solver = { timeoutMs: opts.solveTimeout, ...(opts.solveWorkers ? { workers: opts.solveWorkers } : {}) };
        const service = await start(
          { data, host: opts.host, port: opts.port, webhooks, logLevel: opts.logLevel, accessLog: opts.accessLog, console: opts.console, solver, databaseConnections: opts.databaseConnections, ...(metrics ? { metrics } : {}), ...(tls ? { tls } : {}) },
          opts,
        );
        service.logger.log("info", "listening", { url: service.url.href, data: locationName(data) });
        // File names and switches only: nothing here is a secret.
        service.logger.log("debug", "settings", {
          tlsCert: opts.tlsCert ?? null,
          insecureHttp: opts.insecureHttp ?? false,
          retentionDays: opts.retentionDays,
          retrySchedule: opts.retrySchedule ?? null,
          logLevel: opts.logLevel,
          accessLog: opts.accessLog,
          metrics: opts.metrics ?? false,
          metricsTokenFile: opts.metricsTokenFile ?? null,
          console: opts.console,
          solveTimeoutMs: opts.solveTimeout,
          solveWorkers: opts.solveWorkers ?? null,
          databaseConnections: data.kind === "postgres" ? opts.databaseConnections : null,
        });
        let stopping = false;
        const stop = async () => {
          if (stopping) return;
          stopping = true;
          service.logger.log("info", "stopping");
          await service.stop();
          process.exit(0);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      },
    );
  command.addHelpText("after", "\nEvery option can also be set by the environment variable shown beside it (the flag wins).");
  withExamples(command, [
    "feedbase serve --data /var/lib/feedbase/feedbase.db --port 8080",
    "FEEDBASE_PORT=9000 FEEDBASE_ACCESS_LOG=off feedbase serve",
    "feedbase serve --log-level warn --access-log off",
    "feedbase serve --metrics --metrics-token-file /etc/feedbase/metrics.token",
    "FEEDBASE_DATABASE_URL=postgres://feedbase@db.example/feedbase feedbase serve",
  ]);
}

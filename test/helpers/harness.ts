import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/store/db.ts";
import { createKey } from "../../src/store/keys.ts";
import { requireWorkspace } from "../../src/store/workspaces.ts";
import { startService, type RunningService, type ServiceOptions } from "../../src/service.ts";
import { createLogger } from "../../src/log.ts";
import { checkContract } from "./contract.ts";
import type { Io } from "../../cli/io.ts";
import { main } from "../../cli/program.ts";
import { createKeyRow, createTestDatabase, dataLocation, databaseArgs, databaseEnv, databaseFor, dropTestDatabase, POSTGRES_MODE } from "./postgres.ts";

export const ROOT = join(import.meta.dir, "..", "..");

/**
 * A fresh directory for one test's data file; removed by `cleanup`. In PostgreSQL mode (./postgres.ts)
 * `dataPath` stands for a fresh database, which `cleanup` empties for the next test (./postgres.ts).
 */
export function tempDir(): { dir: string; dataPath: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "feedbase-test-"));
  const dataPath = join(dir, "feedbase.db");
  if (POSTGRES_MODE) createTestDatabase(dataPath);
  const cleanup = () => {
    try {
      dropTestDatabase(dataPath);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return { dir, dataPath, cleanup };
}

/**
 * `n` different ports nobody listens on now: the kernel's choices for sockets held open together (one
 * at a time, it may hand out the same port twice) and then closed.
 * @example const [a, b] = freePorts(2)
 */
export function freePorts(n: number): number[] {
  const servers = Array.from({ length: n }, () => Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() }));
  const ports = servers.map((server) => server.port!);
  for (const server of servers) server.stop(true);
  return ports;
}

/** A clock tests move by hand, so nothing waits on real time. */
export class TestClock {
  constructor(public ms = Date.parse("2026-11-21T12:00:00.000Z")) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestServer {
  service: RunningService;
  url: string;
  dataPath: string;
  /** Parsed JSON log lines written so far. */
  logs(): Record<string, unknown>[];
  /** Raw text of every log line written so far. */
  logText(): string;
  /** An API key made straight in the data file (the CLI path is tested on its own). */
  key(options?: { write?: boolean; rateLimit?: number; workspace?: string }): string;
  /**
   * A request to the server, in-process through its fetch function (no socket; `socket: true` sends it
   * over loopback HTTP instead). Every answer is checked against the route table (./contract.ts).
   */
  request(method: string, path: string, options?: { key?: string | null; body?: unknown; raw?: string | Uint8Array; headers?: Record<string, string>; socket?: boolean }): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * A test server's connections to PostgreSQL: 3, where `serve` keeps 10. Bun.sql opens them all at the
 * first query, each a server process (about 40 ms of the cluster's CPU on the test VM), and no test
 * runs more than 3 statements at a time on one server. test/postgres/pg-serve.pg.ts checks the default.
 */
export const TEST_DATABASE_CONNECTIONS = 3;

/**
 * The real service, in-process on a free port with a temporary data file.
 * @example const t = await startTestServer(); const r = await t.request("GET", "/v1/health", { key: t.key() })
 */
export async function startTestServer(
  options: { clock?: TestClock; env?: Record<string, string>; webhooks?: ServiceOptions["webhooks"]; metrics?: ServiceOptions["metrics"]; foldQuietMs?: number; solver?: ServiceOptions["solver"] } = {},
): Promise<TestServer> {
  const tmp = tempDir();
  let text = "";
  const clock = options.clock?.now;
  const logger = createLogger((t) => (text += t), clock);
  const service = await startService({ data: dataLocation(tmp.dataPath), host: "127.0.0.1", port: 0, logger, ...(clock ? { clock } : {}), ...(options.webhooks ? { webhooks: options.webhooks } : {}), ...(options.metrics ? { metrics: options.metrics } : {}), ...(options.foldQuietMs !== undefined ? { foldQuietMs: options.foldQuietMs } : {}), ...(options.solver ? { solver: options.solver } : {}), ...(POSTGRES_MODE ? { databaseConnections: TEST_DATABASE_CONNECTIONS } : {}) });
  const url = `http://127.0.0.1:${service.port}`;
  const keyDb = POSTGRES_MODE ? null : openDatabase(tmp.dataPath, { create: false });
  return {
    service,
    url,
    dataPath: tmp.dataPath,
    logs: () => {
      logger.flush();
      return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    },
    logText: () => {
      logger.flush();
      return text;
    },
    key({ write = false, rateLimit = 1_000_000, workspace = "default" } = {}) {
      if (!keyDb) return createKeyRow(databaseFor(tmp.dataPath)!, { workspace, write, rateLimit });
      const ws = requireWorkspace(keyDb, workspace);
      const made = createKey(keyDb, { workspaceId: ws.id, write, rateLimit, label: null, now: new Date().toISOString() }).key;
      // The key is written from this connection, another process's write to the server: it looks for
      // such commits at most once a millisecond (src/store/data-version.ts), so a request sent within
      // that millisecond can still see the generation before it. Past it, the first request sees the
      // new one, and a body it keeps stays kept (etag.test counted a 304 as a rebuild without this).
      const seen = performance.now() + 1.1;
      while (performance.now() < seen);
      return made;
    },
    async request(method, path, { key = null, body, raw, headers = {}, socket = false } = {}) {
      const init: RequestInit = { method, headers: { ...headers, ...(key !== null ? { "X-API-Key": key } : {}) } };
      if (raw !== undefined) init.body = raw;
      else if (body !== undefined) init.body = JSON.stringify(body);
      let res = socket ? await fetch(url + path, init) : await service.fetch(new Request(url + path, init));
      // What HTTP does to a HEAD answer on the wire: the headers stay, the body goes.
      if (!socket && method === "HEAD") res = new Response(null, { status: res.status, headers: res.headers });
      checkContract(method, path, res.status, await res.clone().text(), res.headers.get("etag"));
      return res;
    },
    async stop() {
      keyDb?.close();
      await service.stop();
      tmp.cleanup();
    },
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** How `cli()` runs a command line; `command` or `cwd` make it a subprocess. */
export interface CliOptions {
  env?: Record<string, string>;
  stdin?: string;
  subprocess?: boolean;
  /** The program to run instead of `bun cli/main.ts` (the compiled dist/feedbase). */
  command?: string[];
  /** The subprocess's working directory (default: the repository). */
  cwd?: string;
}

/**
 * Run a `feedbase` command line in-process through `main(argv, io)`, as the executable does, with its
 * output captured (`subprocess: true` runs `bun cli/main.ts` instead, for what only a process shows:
 * signals, exit at a failure, the environment of a fresh process; `command` runs another program such
 * as dist/feedbase). commander's `.env()` options read process.env, so for the call's duration
 * FEEDBASE_ settings are the call's own (the suite's are hidden), and in-process calls run one after
 * the other.
 * @example const r = await cli(["key", "list", "--data", path]); expect(r.code).toBe(0)
 */
export async function cli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  // In PostgreSQL mode a temporary data file given by --data or FEEDBASE_DATA stands for its database.
  args = databaseArgs(args);
  const env = databaseEnv(options.env);
  if (env) options = { ...options, env };
  if (options.subprocess || options.command || options.cwd !== undefined) return cliProcess(args, options);
  // One in-process command at a time: each sets process.env for its own duration.
  const turn = cliTurn.then(() => cliInProcess(args, options));
  cliTurn = turn.catch(() => {});
  return turn;
}
let cliTurn: Promise<unknown> = Promise.resolve();

async function cliInProcess(args: string[], options: { env?: Record<string, string>; stdin?: string }): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io: Io = {
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    stdin: async () => options.stdin ?? "",
    stdinIsTTY: false,
    env: process.env,
  };
  const saved = Object.entries(process.env).filter(([name]) => name.startsWith("FEEDBASE_"));
  for (const [name] of saved) delete process.env[name];
  Object.assign(process.env, options.env);
  try {
    const code = await main(args, io);
    return { code, stdout, stderr };
  } finally {
    for (const name of Object.keys(options.env ?? {})) delete process.env[name];
    for (const [name, value] of saved) process.env[name] = value;
  }
}

/** The real CLI as a subprocess (async, so an in-process server keeps answering). */
async function cliProcess(args: string[], options: CliOptions): Promise<CliResult> {
  const command = options.command ?? [process.execPath, join(ROOT, "cli", "main.ts")];
  const proc = Bun.spawn([...command, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...inheritedEnv(), ...options.env },
    stdin: options.stdin !== undefined ? new TextEncoder().encode(options.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** The test process's environment without the FEEDBASE_ settings of whoever runs the suite. */
function inheritedEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("FEEDBASE_")));
}

/** Poll until `check` holds, for effects another process makes (bounded; no fixed sleeps). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

/**
 * Wait until a running server shows what an admin command committed (another connection or process),
 * by each backend's contract (docs/decisions.md): on SQLite the first request a millisecond later sees
 * it, so `check` must hold then; on PostgreSQL the server sees it once the commit's notification arrives, so
 * `check` is polled and fails after 1 s.
 * @example await seenByServer(async () => (await t.request("GET", "/v1/prices/Oats", { key })).status === 200)
 */
export async function seenByServer(check: () => boolean | Promise<boolean>): Promise<void> {
  if (POSTGRES_MODE) return eventually(check, 1000);
  // The server looks at the file at most once a millisecond (src/store/data-version.ts): a request made
  // a millisecond after the commit is the first that must see it (a deadline, not a sleep).
  const called = performance.now();
  while (performance.now() - called < 1);
  if (!(await check())) throw new Error("the next request did not see the admin command's change");
}

export interface ServeProcess {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  /** Everything the process wrote to stdout so far. */
  output(): string;
  /** SIGTERM and wait; resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/**
 * `feedbase serve` as a subprocess on a free port (for crash, signal and executable tests).
 * @example const s = await spawnServe(dataPath); await fetch(s.url + "/healthz"); await s.stop()
 */
export async function spawnServe(
  dataPath: string,
  options: { args?: string[]; env?: Record<string, string>; command?: string[] } = {},
): Promise<ServeProcess> {
  const command = options.command ?? [process.execPath, join(ROOT, "cli", "main.ts")];
  const proc = Bun.spawn([...command, "serve", ...databaseArgs(["--data", dataPath]), "--port", "0", ...(options.args ?? [])], {
    cwd: ROOT,
    env: { ...inheritedEnv(), ...(POSTGRES_MODE ? { FEEDBASE_DATABASE_CONNECTIONS: String(TEST_DATABASE_CONNECTIONS) } : {}), ...databaseEnv(options.env) },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  let text = "";
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })();
  let url = "";
  await eventually(() => {
    const m = /"msg":"listening","url":"([^"]+)"/.exec(text);
    if (m) url = m[1]!.replace(/\/$/, "");
    if (proc.exitCode !== null) throw new Error(`serve exited early (${proc.exitCode}): ${text}`);
    return url !== "";
  }, 15_000);
  return {
    url,
    proc,
    output: () => text,
    async stop(signal = "SIGTERM") {
      proc.kill(signal);
      const code = await proc.exited;
      await pump;
      return code;
    },
  };
}

/**
 * The solver pool (docs/decisions.md#solver-pool): a few Bun Workers, each with its own HiGHS (an
 * instance of the module the first worker compiled and sent back, handed to each one started since), take the
 * tasks of ./tasks.ts one at a time, so the event loop keeps serving while they solve. A task waits in a
 * bounded queue for a free worker; beyond the bound it is refused at once. A worker whose HiGHS gives
 * up, or that is still solving when the time limit passes, is terminated and replaced: only its task
 * fails. The timer starts when a ready worker takes the task, so the limit is the solve's, not the wait's.
 */
import { ValidationError } from "../domain/errors.ts";
import type { Logger } from "../log.ts";
import type { FromWorker, ToWorker } from "./pool-protocol.ts";
import { QUEUE_FULL, SolverFailure, solverProblem, SolverUnavailable, TIME_LIMIT_EXCEEDED } from "./solver-errors.ts";
import type { Solve, TaskInput, TaskKind, TaskOutput } from "./tasks.ts";

export interface PoolOptions {
  /** Workers (at least 1). */
  size: number;
  /** A task still running this long after a worker took it fails with 503 and its worker is replaced. */
  timeoutMs: number;
  /** Tasks that may wait for a worker; one more is refused (503). */
  maxQueue: number;
  logger: Logger;
}

/** What the HTTP layer holds: the pool, or anything that runs tasks and reports like it. */
export interface Solver {
  run: Solve;
  /**
   * The output's JSON text, made where the task ran: what an HTTP answer needs, without rebuilding
   * the output on the event loop (a structured clone) only to serialize it there.
   */
  runJson<K extends TaskKind>(kind: K, input: TaskInput<K>): Promise<string>;
  /**
   * `runJson` with the input's bulk already JSON text (kept between requests, e.g. a formula and its
   * candidates): the worker parses it and lays `rest` over it, so the event loop neither builds nor
   * clones the bulk again (a structured clone of a 60-candidate input cost it about 1 ms).
   */
  runJsonOver<K extends TaskKind>(kind: K, base: string, rest: Partial<TaskInput<K>>): Promise<string>;
  /** How many tasks run at once (a worklist sends no more at a time). */
  readonly size: number;
  stats(): PoolStats;
}

/** What `/readyz` and the tests see of the pool. */
export interface PoolStats {
  workers: number;
  /** Workers with HiGHS loaded. */
  alive: number;
  busy: number;
  queued: number;
  maxQueue: number;
  /** Tasks handed to a worker since the start. */
  started: number;
}

interface Job {
  id: number;
  kind: string;
  input: unknown;
  base: string | null;
  json: boolean;
  resolve(output: unknown): void;
  reject(error: unknown): void;
}

interface Member {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: ReturnType<typeof setTimeout> | null;
}

/** Seconds a client refused for a full queue is asked to wait: about one solve. */
const QUEUE_RETRY_AFTER = 1;

/**
 * Inside the executable the worker is the extra entry point the Makefile compiles in, named by its
 * path from the project root; from source it is the file beside this one.
 */
const WORKER_SCRIPT = import.meta.url.startsWith("file:///$bunfs/") ? "./src/optimize/pool-worker.ts" : new URL("./pool-worker.ts", import.meta.url).href;

/**
 * The default size: one worker per core but one, which is left to the event loop (at least 1).
 * @example defaultPoolSize() // 1 on a 2-core machine
 */
export function defaultPoolSize(): number {
  return Math.max(1, navigator.hardwareConcurrency - 1);
}

/**
 * @example const pool = new SolverPool({ size: 1, timeoutMs: 5000, maxQueue: 64, logger }); const r = await pool.run("optimize", input)
 */
export class SolverPool implements Solver {
  private readonly members: Member[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private started = 0;
  private closed = false;
  /** HiGHS compiled by the first worker to have done so, for every worker started since (a replacement is ready sooner). */
  private module: WebAssembly.Module | null = null;
  /** Whether the debug line saying the workers could not lower their priority was logged (once a process). */
  private toldPriority = false;

  constructor(private readonly options: PoolOptions) {}

  get size(): number {
    return this.options.size;
  }

  /** Starts the workers now rather than at the first task (HiGHS takes about 0.2 s to compile). */
  start(): void {
    while (!this.closed && this.members.length < this.options.size) this.spawn();
  }

  /** Runs a task on the first free worker; rejects with SolverUnavailable (busy, time limit) or SolverFailure. */
  run: Solve = <K extends TaskKind>(kind: K, input: TaskInput<K>) => this.submit(kind, input, false) as Promise<TaskOutput<K>>;

  runJson<K extends TaskKind>(kind: K, input: TaskInput<K>): Promise<string> {
    return this.submit(kind, input, true) as Promise<string>;
  }

  runJsonOver<K extends TaskKind>(kind: K, base: string, rest: Partial<TaskInput<K>>): Promise<string> {
    return this.submit(kind, rest, true, base) as Promise<string>;
  }

  private submit(kind: TaskKind, input: unknown, json: boolean, base: string | null = null): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new SolverUnavailable("Solver stopped", QUEUE_RETRY_AFTER));
      if (this.queue.length >= this.options.maxQueue) return reject(new SolverUnavailable(QUEUE_FULL, QUEUE_RETRY_AFTER));
      this.queue.push({ id: ++this.nextId, kind, input, base, json, resolve, reject });
      this.start();
      this.pump();
    });
  }

  stats(): PoolStats {
    return {
      workers: this.members.length,
      alive: this.members.filter((m) => m.ready).length,
      busy: this.members.filter((m) => m.job !== null).length,
      queued: this.queue.length,
      maxQueue: this.options.maxQueue,
      started: this.started,
    };
  }

  /** Terminates every worker; waiting and running tasks fail with 503. */
  close(): void {
    this.closed = true;
    for (const member of [...this.members]) this.retire(member, new SolverUnavailable("Solver stopped", QUEUE_RETRY_AFTER));
    for (const job of this.queue.splice(0)) job.reject(new SolverUnavailable("Solver stopped", QUEUE_RETRY_AFTER));
  }

  private spawn(): void {
    const worker = new Worker(WORKER_SCRIPT, { smol: true });
    // Idle workers must not keep a CLI or a test process alive; a server is kept alive by its socket.
    worker.unref();
    const member: Member = { worker, ready: false, job: null, timer: null };
    this.members.push(member);
    worker.onmessage = (event: MessageEvent<FromWorker>) => this.heard(member, event.data);
    worker.onerror = (event) => {
      this.options.logger.log("error", "solver worker failed", { error: event.message });
      this.replace(member, new SolverFailure(`The solver stopped on this problem: ${event.message}`));
    };
    // Compiling blocks the thread that does it (36–39 ms): a worker does it, never the event loop.
    worker.postMessage({ type: "module", module: this.module } satisfies ToWorker);
  }

  private heard(member: Member, message: FromWorker): void {
    if (!this.members.includes(member)) return;
    if (message.type === "ready") {
      member.ready = true;
      this.module ??= message.module;
      const lowered = typeof message.nice === "number";
      this.options.logger.log("info", "solver ready", { highs: message.version, wasm: message.wasm, workers: this.members.length, nice: lowered ? message.nice : null, idle: message.idle, idleCompilers: message.compilers, compiled: message.module !== null });
      if (!lowered && !this.toldPriority) this.options.logger.log("debug", "solver workers keep the event loop's priority", { reason: message.nice });
      this.toldPriority ||= !lowered;
      return this.pump();
    }
    if (message.type === "broken") {
      this.options.logger.log("error", "solver failed to load", { error: message.message });
      this.retire(member, null);
      // Nothing can solve until a worker loads: what waits is told now, not at its time limit.
      for (const job of this.queue.splice(0)) job.reject(new SolverUnavailable("Solver unavailable", QUEUE_RETRY_AFTER));
      return;
    }
    const job = member.job;
    if (job === null || job.id !== message.id) return;
    this.finish(member);
    if (message.type === "done") {
      job.resolve(message.output);
      return this.pump();
    }
    if (message.cause === "input") job.reject(new ValidationError(message.message));
    else if (message.cause === "solver") {
      this.options.logger.log("warn", "solver gave up; worker replaced", { task: job.kind, error: message.message });
      job.reject(new SolverFailure(solverProblem(message.message)));
      return this.replace(member, null);
    } else {
      job.reject(new Error(`Solver task ${job.kind} failed: ${message.stack}`));
      return this.replace(member, null);
    }
    this.pump();
  }

  /** Hands waiting tasks to ready, idle workers. */
  private pump(): void {
    for (const member of this.members) {
      if (this.queue.length === 0) return;
      if (!member.ready || member.job !== null) continue;
      const job = this.queue.shift()!;
      member.job = job;
      this.started++;
      member.timer = setTimeout(() => {
        this.options.logger.log("warn", "solver time limit exceeded; worker replaced", { task: job.kind, timeoutMs: this.options.timeoutMs });
        this.replace(member, new SolverUnavailable(TIME_LIMIT_EXCEEDED, Math.max(1, Math.ceil(this.options.timeoutMs / 1000))));
      }, this.options.timeoutMs);
      const message: ToWorker = { type: "task", id: job.id, kind: job.kind, input: job.input, base: job.base, json: job.json };
      member.worker.postMessage(message);
    }
  }

  private finish(member: Member): void {
    if (member.timer !== null) clearTimeout(member.timer);
    member.timer = null;
    member.job = null;
  }

  /** Terminates the worker (failing its task with `error`, when given) and starts another. */
  private replace(member: Member, error: unknown): void {
    if (!this.members.includes(member)) return;
    this.retire(member, error);
    this.start();
    this.pump();
  }

  private retire(member: Member, error: unknown): void {
    const job = member.job;
    this.finish(member);
    this.members.splice(this.members.indexOf(member), 1);
    member.worker.onmessage = null;
    member.worker.onerror = null;
    member.worker.terminate();
    if (job !== null && error !== null) job.reject(error);
  }
}

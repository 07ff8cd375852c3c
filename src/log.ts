import type { Clock } from "./domain/time.ts";
import { systemClock, timestamper } from "./domain/time.ts";

/** Least to most severe; `--log-level` keeps its level and those after it. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Structured JSON lines on stdout. Never pass a key or a secret in `fields`. */
export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
  /**
   * A line whose fields are already JSON (`"a":1,"b":"x"`, no braces): the access log's, made with a
   * template on every request instead of an object spread and a JSON.stringify of it.
   */
  logJson(level: LogLevel, msg: string, fieldsJson: string): void;
  /** Write out what is buffered (called on shutdown). */
  flush(): void;
}

/** Characters JSON.stringify would escape, or that it might (anything outside printable ASCII, `"` and `\`). */
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/**
 * `JSON.stringify(s)` for a string, without its call for the usual one (ids, paths): only a string
 * with a character it would escape goes through it. For `logJson`'s fields, made on every request.
 * @example jsonString("key_3hT9") // '"key_3hT9"'
 */
export const jsonString = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

/** Where lines go: called once per line; `flush` (if any) pushes out what it holds. */
export interface LogSink {
  (text: string): void;
  flush?(): void;
}

/** A turn's lines are written out early once they reach this many characters (a flood stays bounded). */
const PENDING_CHARS = 64 * 1024;

/**
 * Bun's file sink on stdout, written once per event-loop turn. process.stdout.write goes through the
 * Node stream machinery (about 3 µs a line), and the sink itself writes each line with its own write(2)
 * when it is called once per request: the turn's lines are appended to one string (a rope: appending
 * copies nothing) and handed over in one write, one system call per turn instead of one per request.
 */
function stdoutSink(): LogSink {
  const writer = Bun.stdout.writer();
  let pending = "";
  const flush = () => {
    if (pending === "") return;
    writer.write(pending);
    pending = "";
    writer.flush();
  };
  const sink: LogSink = (text) => {
    if (pending === "") setImmediate(flush);
    pending += text;
    if (pending.length >= PENDING_CHARS) flush();
  };
  sink.flush = flush;
  return sink;
}

/**
 * JSON lines, one per call: `time` (made once per millisecond), `level` and `msg` first and never
 * overwritten by `fields`; lines below `minimum` are dropped.
 * @example const logger = createLogger(); logger.log("info", "listening", { url })
 */
export function createLogger(sink: LogSink = stdoutSink(), clock: Clock = systemClock, minimum: LogLevel = "info"): Logger {
  const stamp = timestamper();
  const threshold = LOG_LEVELS.indexOf(minimum);
  return {
    log(level, msg, fields) {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      const fixed = { time: stamp(clock()), level, msg };
      // The fixed fields come first and keep their values: a caller's `msg` or `time` field cannot replace them.
      sink(JSON.stringify(fields ? Object.assign({ ...fixed }, fields, fixed) : fixed) + "\n");
    },
    logJson(level, msg, fieldsJson) {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      sink(`{"time":"${stamp(clock())}","level":"${level}","msg":${jsonString(msg)},${fieldsJson}}\n`);
    },
    flush: () => sink.flush?.(),
  };
}

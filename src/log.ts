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

/** Where lines go: called once per line; `flush` (if any) pushes out what it holds. */
export interface LogSink {
  (text: string): void;
  flush?(): void;
}

/**
 * Bun's file sink on stdout, flushed once per event-loop turn. process.stdout.write goes through the
 * Node stream machinery (about 3 µs a line), and joining a turn's lines into one string cost more
 * than writing them: the sink buffers the bytes itself.
 */
function stdoutSink(): LogSink {
  const writer = Bun.stdout.writer();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    writer.flush();
  };
  const sink: LogSink = (text) => {
    writer.write(text);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
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
      sink(`{"time":"${stamp(clock())}","level":"${level}","msg":${JSON.stringify(msg)},${fieldsJson}}\n`);
    },
    flush: () => sink.flush?.(),
  };
}

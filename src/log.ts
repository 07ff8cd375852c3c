import type { Clock } from "./domain/time.ts";
import { systemClock, timestamper } from "./domain/time.ts";

export type LogLevel = "info" | "warn" | "error";

/** Structured JSON lines on stdout. Never pass a key or a secret in `fields`. */
export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
  /** Write out what is buffered (called on shutdown). */
  flush(): void;
}

/**
 * Bun's file sink on stdout: process.stdout.write goes through the Node stream machinery and cost
 * about 3 µs a line under load, a large share of a cached GET.
 */
function stdoutSink(): (text: string) => void {
  const writer = Bun.stdout.writer();
  return (text) => {
    writer.write(text);
    writer.flush();
  };
}

/**
 * A logger that batches the lines of one event-loop turn into a single write, so logging stays
 * a few microseconds per request under load.
 * @example const logger = createLogger(); logger.log("info", "listening", { url })
 */
export function createLogger(sink: (text: string) => void = stdoutSink(), clock: Clock = systemClock): Logger {
  const stamp = timestamper();
  let buffer: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer.length === 0) return;
    const text = buffer.join("");
    buffer = [];
    sink(text);
  };
  return {
    log(level, msg, fields) {
      buffer.push(JSON.stringify({ time: stamp(clock()), level, msg, ...fields }) + "\n");
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

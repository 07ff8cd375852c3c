/**
 * Where a command reads and writes: the process's streams when `feedbase` runs, buffers when a test
 * calls `main(argv, io)` in-process (test/helpers/harness.ts).
 */
export interface Io {
  /** Write to stdout. */
  out(text: string): void;
  /** Write to stderr. */
  err(text: string): void;
  /** All of stdin, as text. */
  stdin(): Promise<string>;
  /** Whether stdin is a terminal (a prompt is shown only then). */
  readonly stdinIsTTY: boolean;
  /** The environment the command reads its FEEDBASE_ settings from (commander's `.env()` options read the process's). */
  readonly env: Record<string, string | undefined>;
}

/** The running process's streams and environment. @example process.exitCode = await main(process.argv.slice(2), processIo) */
export const processIo: Io = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  stdin: () => Bun.stdin.text(),
  get stdinIsTTY() {
    return process.stdin.isTTY === true;
  },
  env: process.env,
};

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

/**
 * A write to a stream whose reader has gone (`feedbase key list | head -1`): end quietly, as Unix tools
 * do, instead of a stack trace; whatever the command did is done, only its output has nobody to read it.
 */
function writeTo(stream: NodeJS.WriteStream): (text: string) => void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  return (text) => {
    try {
      stream.write(text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EPIPE") process.exit(0);
      throw error;
    }
  };
}

/** The running process's streams and environment. @example process.exitCode = await main(process.argv.slice(2), processIo) */
export const processIo: Io = {
  out: writeTo(process.stdout),
  err: writeTo(process.stderr),
  stdin: () => Bun.stdin.text(),
  get stdinIsTTY() {
    return process.stdin.isTTY === true;
  },
  env: process.env,
};

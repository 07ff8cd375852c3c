/**
 * The physical limit for reads: a bare `Bun.serve` that answers each read path with bytes captured
 * once from the real server (same status, same headers, same body), so the only difference from
 * feedbase is everything feedbase does per request. It still runs one JavaScript call per request
 * (a Map lookup and a Response), as any server that must look at the request has to.
 *
 * Run: `bun bench/bare-server.ts <captured.json> <port>`; bench/run.ts compiles it with
 * `bun build --compile` like feedbase, so cold start and executable size have a baseline too.
 * `captured.json` is an array of `{ path, status, headers: [name, value][], body: base64 }`.
 */

/** One captured answer of the real server. */
export interface CapturedResponse {
  path: string;
  status: number;
  headers: [string, string][];
  body: string;
}

const [capturedPath, portArg] = process.argv.slice(2);
if (!capturedPath || !portArg) {
  process.stderr.write("usage: bare-server <captured.json> <port>\n");
  process.exit(2);
}

const captured = (await Bun.file(capturedPath).json()) as CapturedResponse[];
const answers = new Map(
  // A Blob is the cheapest body Bun sends: a Response shares its bytes, where one made from a Buffer copies them.
  captured.map((c) => [c.path, { body: new Blob([Buffer.from(c.body, "base64")]), init: { status: c.status, headers: Object.fromEntries(c.headers) } }]),
);

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(portArg),
  development: false,
  fetch(req) {
    // The path as feedbase takes it: the raw bytes after the authority, query included.
    const url = req.url;
    const answer = answers.get(url.slice(url.indexOf("/", url.indexOf("//") + 2)));
    return answer ? new Response(answer.body, answer.init) : new Response("Not found", { status: 404 });
  },
});

process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});

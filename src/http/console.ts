/**
 * The web console's paths: `GET /` redirects to /console/, hashed assets under /console/ are cached
 * for good, any other path under /console/ is the page (the console routes in the browser), and every
 * answer carries the console's security headers. No key and no rate limit here: the page holds no
 * data; everything it shows comes from /v1 with the key the user signs in with.
 */
import type { Reply } from "./envelope.ts";
import { CONSOLE_PREFIX, consoleFiles, type ConsoleAsset, type ConsoleFiles } from "./console-assets.ts";

/** Only this origin's scripts, styles, images and API; inline scripts and styles refused; never framed. */
export const CONSOLE_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

const SECURITY = { "Content-Security-Policy": CONSOLE_CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" };
const IMMUTABLE = "public, max-age=31536000, immutable";

/** The route template a console answer is counted under (metrics) and the answer itself. */
export interface ConsoleAnswer {
  route: string;
  reply: Reply | Promise<Reply>;
}

const text = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers: { ...SECURITY, "Content-Type": "text/plain;charset=utf-8", "Cache-Control": "no-store", ...headers },
});

function send(req: Request, file: ConsoleAsset, cache: string): Reply {
  const gzip = file.gzip !== null && /\bgzip\b/.test(req.headers.get("accept-encoding") ?? "");
  const headers: Record<string, string> = { ...SECURITY, "Content-Type": file.type, "Cache-Control": cache, ETag: file.etag, Vary: "Accept-Encoding" };
  if (gzip) headers["Content-Encoding"] = "gzip";
  return { status: 200, body: req.method === "HEAD" ? null : gzip ? file.gzip : file.body, headers };
}

function fromFiles(req: Request, path: string, files: ConsoleFiles): Reply {
  const file = files.assets.get(path);
  if (file) return send(req, file, IMMUTABLE);
  // A script or stylesheet name that is not ours is a 404, never the page: served as the page, the
  // browser would refuse it (nosniff) with an error that hides the real one (a stale tab after an upgrade).
  if (/\.[a-z0-9]+$/i.test(path)) return text(404, "Not found");
  return send(req, files.index, "no-store");
}

/**
 * The console's answer for a path, or null when the path is not the console's (the API goes on).
 * @example consoleAnswer(new Request("http://x/"), "/") // { route: "/", reply: 302 to /console/ }
 */
export function consoleAnswer(req: Request, path: string): ConsoleAnswer | null {
  if (path === "/" || path === "/console") {
    const reply: Reply = { status: 302, body: null, headers: { ...SECURITY, Location: CONSOLE_PREFIX, "Cache-Control": "no-store" } };
    return { route: path, reply };
  }
  if (!path.startsWith(CONSOLE_PREFIX)) return null;
  const route = `${CONSOLE_PREFIX}*`;
  if (req.method !== "GET" && req.method !== "HEAD") return { route, reply: text(405, "Method not allowed", { Allow: "GET, HEAD" }) };
  return { route, reply: consoleFiles().then((files) => fromFiles(req, path, files)) };
}

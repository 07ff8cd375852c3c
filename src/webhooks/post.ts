/**
 * One signed POST to a receiver, as the delivery loop and `webhook ping` make it: a time limit, no
 * redirects, and at most a few bytes of the answer read before the connection is closed (a receiver's
 * body is not ours to buffer).
 *
 * HTTP/1.1 over a plain socket (TLS for https), not fetch: Bun's fetch reads a response on its own
 * thread for as long as the JavaScript thread is busy (an fsync, say), so an endless body still cost
 * megabytes an attempt after the abort. A socket is read only when we ask, so the kernel's buffer is
 * the bound. docs/decisions.md#faults.
 */

/** What a receiver answered: a status line, or an error before one arrived. */
export interface PostAnswer {
  status: number | null;
  /** Null on a 2xx; otherwise the reason in one line (`HTTP 500 Internal Server Error`, `timed out after 10 s`). */
  error: string | null;
  retryAfter: string | null;
  /** The first `bodyBytes` bytes of the answer's body, as text (empty unless asked for). */
  bodyStart: string;
}

export interface PostOptions {
  timeoutMs: number;
  /** Aborts the attempt from outside (shutdown). */
  signal?: AbortSignal;
  /** How much of the answer's body to read; 0 reads none. */
  bodyBytes?: number;
}

/** An answer's status line and headers may take this much; more is refused as not HTTP. */
const MAX_HEAD_BYTES = 64 * 1024;
const HEAD_END = Buffer.from("\r\n\r\n");

interface Head {
  status: number;
  reason: string;
  headers: Map<string, string>;
  /** Where the body starts in the bytes read. */
  bodyAt: number;
}

/** The final (non-1xx) status line and headers in `bytes`, or null while they are incomplete. */
function parseHead(bytes: Buffer): Head | null {
  let at = 0;
  for (;;) {
    const end = bytes.indexOf(HEAD_END, at);
    if (end === -1) return null;
    const lines = bytes.subarray(at, end).toString("latin1").split("\r\n");
    const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(lines[0]!);
    if (!m) throw new Error("InvalidHTTPResponse: not an HTTP/1.1 answer");
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const status = Number(m[1]);
    if (status >= 200 || status < 100) return { status, reason: m[2] ?? "", headers, bodyAt: end + 4 };
    at = end + 4; // 100 Continue and the like: the answer follows
  }
}

/** Up to `limit` bytes of the body read so far, chunked transfer coding undone; null while more is needed. */
function bodyStart(bytes: Buffer, head: Head, limit: number, ended: boolean): string | null {
  if (limit <= 0) return "";
  let body = bytes.subarray(head.bodyAt);
  if (/chunked/i.test(head.headers.get("transfer-encoding") ?? "")) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const line = body.indexOf("\r\n", at);
      if (line === -1) break;
      const size = parseInt(body.subarray(at, line).toString("latin1"), 16);
      if (!(size > 0)) break;
      parts.push(body.subarray(line + 2, Math.min(line + 2 + size, body.length)));
      if (line + 2 + size + 2 > body.length) break;
      at = line + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  const length = Number(head.headers.get("content-length") ?? Infinity);
  if (body.length < Math.min(limit, length) && !ended) return null;
  return body.subarray(0, limit).toString("utf8");
}

/**
 * POST `body` with `headers` to `url` and tell what came back; never throws.
 * @example const answer = await postSigned(url, signedHeaders({ ... }), body, { timeoutMs: 10_000 })
 */
export function postSigned(url: string, headers: Record<string, string>, body: string, options: PostOptions): Promise<PostAnswer> {
  const failed = (error: string): PostAnswer => ({ status: null, error, retryAfter: null, bodyStart: "" });
  const target = new URL(url);
  const https = target.protocol === "https:";
  const hostname = target.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(target.port || (https ? 443 : 80));
  const payload = Buffer.from(body, "utf8");
  const head =
    `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("") +
    "\r\n";
  const limit = options.bodyBytes ?? 0;

  return new Promise<PostAnswer>((resolve) => {
    let settled = false;
    let socket: { end(): void; terminate(): void } | null = null;
    let received = Buffer.alloc(0);
    let parsed: Head | null = null;
    const settle = (answer: PostAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      socket?.terminate();
      resolve(answer);
    };
    const timer = setTimeout(() => settle(failed(`timed out after ${options.timeoutMs / 1000} s`)), options.timeoutMs);
    const onAbort = () => settle(failed("aborted"));
    if (options.signal?.aborted) return settle(failed("aborted"));
    options.signal?.addEventListener("abort", onAbort);

    /** Settle once the head (and the wanted start of the body) is in. */
    const look = (ended: boolean) => {
      try {
        parsed ??= parseHead(received);
      } catch (error) {
        return settle(failed((error as Error).message));
      }
      if (parsed === null) {
        if (received.length > MAX_HEAD_BYTES) settle(failed("InvalidHTTPResponse: answer headers over 64 KB"));
        else if (ended) settle(failed("ConnectionClosed: the receiver closed the connection before answering"));
        return;
      }
      const start = bodyStart(received, parsed, limit, ended);
      if (start === null) return;
      const { status, reason, headers: got } = parsed;
      const location = got.get("location");
      const error =
        status >= 200 && status < 300
          ? null
          : `HTTP ${status}${reason ? " " + reason : ""}${status >= 300 && status < 400 && location ? ` to ${location} (redirects are not followed)` : ""}`;
      settle({ status, error, retryAfter: got.get("retry-after") ?? null, bodyStart: start });
    };

    Bun.connect({
      hostname,
      port,
      ...(https ? { tls: { serverName: hostname } } : {}),
      socket: {
        open(s) {
          socket = s;
          if (settled) return s.terminate();
          s.write(Buffer.concat([Buffer.from(head, "latin1"), payload]));
        },
        data(_s, chunk) {
          received = Buffer.concat([received, chunk]);
          look(false);
        },
        end() {
          look(true);
        },
        close() {
          look(true);
        },
        error(_s, error) {
          const e = error as { code?: string; message?: string };
          settle(failed([e.code, e.message ?? String(error)].filter(Boolean).join(": ")));
        },
        connectError(_s, error) {
          const e = error as { code?: string; message?: string };
          settle(failed([e.code, e.message ?? String(error)].filter(Boolean).join(": ")));
        },
      },
    }).catch((error: { code?: string; message?: string }) => settle(failed([error.code, error.message ?? String(error)].filter(Boolean).join(": "))));
  });
}

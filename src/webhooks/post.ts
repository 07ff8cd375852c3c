/**
 * One signed POST to a receiver, as the delivery loop and `webhook ping` make it: a time limit, no
 * redirects, and at most a few bytes of the answer read before the request is aborted (a receiver's
 * body is not ours to buffer).
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

/** Up to `limit` bytes of a body; the caller aborts the rest. */
async function readStart(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (!body || limit <= 0) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit));
}

/**
 * POST `body` with `headers` to `url` and tell what came back; never throws.
 * @example const answer = await postSigned(url, signedHeaders({ ... }), body, { timeoutMs: 10_000 })
 */
export async function postSigned(url: string, headers: Record<string, string>, body: string, options: PostOptions): Promise<PostAnswer> {
  const done = new AbortController();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signals = [done.signal, timeout, ...(options.signal ? [options.signal] : [])];
  try {
    const res = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.any(signals) });
    const bodyStart = await readStart(res.body, options.bodyBytes ?? 0);
    const location = res.headers.get("location");
    const error =
      res.status >= 200 && res.status < 300
        ? null
        : `HTTP ${res.status}${res.statusText ? " " + res.statusText : ""}${res.status >= 300 && res.status < 400 && location ? ` to ${location} (redirects are not followed)` : ""}`;
    return { status: res.status, error, retryAfter: res.headers.get("retry-after"), bodyStart };
  } catch (error) {
    if (timeout.aborted) return { status: null, error: `timed out after ${options.timeoutMs / 1000} s`, retryAfter: null, bodyStart: "" };
    if (options.signal?.aborted) return { status: null, error: "aborted", retryAfter: null, bodyStart: "" };
    const e = error as { code?: string; message?: string };
    return { status: null, error: [e.code, e.message ?? String(error)].filter(Boolean).join(": "), retryAfter: null, bodyStart: "" };
  } finally {
    // Whatever of the body was not read is not wanted: aborting stops Bun from buffering it.
    done.abort();
  }
}

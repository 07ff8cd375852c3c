/**
 * Every call the console makes: /v1 with the signed-in key in X-API-Key, nothing else. The key lives in
 * sessionStorage only (gone with the tab; never a cookie, a URL or a log line). GET answers are kept
 * with their ETag and asked again with If-None-Match: an unchanged answer is a 304, which the server
 * does not count against the key's hourly limit, so moving between pages costs (almost) nothing.
 */
import { signal } from "@preact/signals";

const KEY = "feedbase.key";

/** What GET /v1/key says about the signed-in key. */
export interface KeyInfo {
  id: string;
  workspace: string;
  write: boolean;
  rateLimit: number;
  label: string | null;
}

/** An answer that is not a success, as a sentence a person can act on. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly requestId: string | null = null,
    /** Seconds until the key's window has room again (a rate-limit refusal). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** The signed-in key's rights; null: show the sign-in form. */
export const session = signal<KeyInfo | null>(null);
/** Why the sign-in form is shown again (the API's own message). */
export const signInNotice = signal<string | null>(null);
/** When a rate-limited key may ask again (ms since the epoch); the key is kept meanwhile. */
export const retryAt = signal<number | null>(null);
/** The key's window as the last answer told it. */
export const quota = signal<{ remaining: number; limit: number } | null>(null);

const kept = new Map<string, { etag: string; body: unknown }>();

export const storedKey = (): string | null => sessionStorage.getItem(KEY);

/** The last body of a GET, if one was fetched in this tab: pages show it at once while asking again. */
export const keptBody = <T>(path: string): T | undefined => kept.get(path)?.body as T | undefined;

function noteQuota(res: Response): void {
  const remaining = Number(res.headers.get("x-ratelimit-remaining"));
  const limit = Number(res.headers.get("x-ratelimit-limit"));
  if (res.headers.has("x-ratelimit-limit") && Number.isFinite(remaining)) quota.value = { remaining, limit };
}

/** A 401: a rate-limited key waits (kept); any other refusal forgets the key. The page stays where it was. */
function refused(error: ApiError): void {
  if (error.retryAfter !== null) {
    retryAt.value = Date.now() + error.retryAfter * 1000;
  } else {
    sessionStorage.removeItem(KEY);
    kept.clear();
  }
  signInNotice.value = error.message;
  session.value = null;
}

async function bodyOf(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

/**
 * One /v1 request with the signed-in key; the parsed envelope, or an ApiError.
 * @example const prices = await api<Envelope<Price[]>>("/v1/prices")
 */
export async function api<T>(path: string, options: { method?: "GET" | "PUT" | "POST"; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const key = storedKey();
  if (key === null) throw new ApiError("Sign in with an API key first.", 401);
  const method = options.method ?? "GET";
  const headers: Record<string, string> = { "X-API-Key": key };
  const known = method === "GET" ? kept.get(path) : undefined;
  if (known) headers["If-None-Match"] = known.etag;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      cache: "no-store",
      credentials: "omit",
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError("The server did not answer. Is feedbase still running? Try again in a moment.", 0);
  }
  noteQuota(res);
  if (res.status === 304 && known) return known.body as T;
  const body = (await bodyOf(res)) as { message?: unknown } | null;
  // Cancelled while the body was read (the page was left): nobody waits for this answer, and a
  // half-read refusal must not replace the message of the request that caused the leaving.
  options.signal?.throwIfAborted();
  if (!res.ok) {
    const message = typeof body?.message === "string" ? body.message : `The server answered ${res.status} ${res.statusText}.`;
    const wait = res.headers.get("retry-after");
    const error = new ApiError(message, res.status, res.headers.get("x-request-id"), res.status === 401 && wait !== null ? Number(wait) : null);
    if (res.status === 401) refused(error);
    throw error;
  }
  const etag = res.headers.get("etag");
  if (method === "GET" && etag !== null) kept.set(path, { etag, body });
  return body as T;
}

/**
 * Sign in: keep the key for this tab, then ask what it may do. A refused key is forgotten at once.
 * @example await signIn("fbk_...")
 */
export async function signIn(key: string): Promise<void> {
  sessionStorage.setItem(KEY, key.trim());
  let answer: { data: KeyInfo };
  try {
    answer = await api<{ data: KeyInfo }>("/v1/key");
  } catch (error) {
    if ((error as ApiError).retryAfter == null) sessionStorage.removeItem(KEY);
    throw error;
  }
  signInNotice.value = null;
  retryAt.value = null;
  session.value = answer.data;
}

/** Forget the key (and every answer fetched with it). */
export function signOut(): void {
  sessionStorage.removeItem(KEY);
  kept.clear();
  quota.value = null;
  signInNotice.value = null;
  session.value = null;
}

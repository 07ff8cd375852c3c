import type { Database } from "bun:sqlite";
import type { Clock } from "../domain/time.ts";
import type { KeyAuth } from "../store/keys.ts";
import type { PreparedBody, Reply } from "./envelope.ts";
import { HttpError } from "./errors.ts";

export type Method = "GET" | "HEAD" | "POST" | "PUT";

/** Everything a handler may use: the validated request and the services of the running app. */
export interface RequestContext {
  req: Request;
  key: KeyAuth;
  /** Path parameters, percent-decoded once, in the order of the pattern. */
  params: string[];
  query: URLSearchParams;
  db: Database;
  clock: Clock;
  /** The request's time, as the ISO 8601 `timestamp` of the envelope. */
  timestamp: string;
  /**
   * Run a write in the shared group commit (src/store/write-queue.ts); resolves once it is durable.
   * The work must be synchronous database work only.
   */
  write<T>(work: () => T): Promise<T>;
  /**
   * A body derived from the data (`build` returns an `openBody`), kept serialized while the data is
   * unchanged (src/http/read-cache.ts). The key must name everything the body depends on.
   */
  cached(key: string, build: () => string): PreparedBody;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route {
  /** `/v1/ingredients/:name`: literal segments and `:param` segments. */
  path: string;
  /** HEAD is served by GET wherever GET is, so it is never listed here. */
  methods: Partial<Record<"GET" | "POST" | "PUT", Handler>>;
}

interface CompiledRoute {
  route: Route;
  segments: { literal: string | null }[];
  allow: string;
}

export type Match =
  | { kind: "found"; handler: Handler; params: string[] }
  | { kind: "method"; allow: string }
  | { kind: "none" };

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT"] as const;

/**
 * A small router over raw paths: Bun's own routes answer 404 where the spec wants 405 and decode a bad
 * escape to U+FFFD, so matching happens here on the undecoded path and each parameter is decoded once.
 * @example const router = new Router([{ path: "/v1/health", methods: { GET: health } }]);
 *          router.match("GET", "/v1/health")
 */
export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(readonly routes: readonly Route[]) {
    this.compiled = routes.map((route) => ({
      route,
      segments: route.path
        .slice(1)
        .split("/")
        .map((s) => ({ literal: s.startsWith(":") ? null : s })),
      allow: METHOD_ORDER.filter((m) => (m === "HEAD" ? route.methods.GET : route.methods[m])).join(", "),
    }));
  }

  /** Throws HttpError(400) for a malformed escape in a parameter of a matching path. */
  match(method: string, rawPath: string): Match {
    const parts = rawPath.slice(1).split("/");
    for (const c of this.compiled) {
      if (c.segments.length !== parts.length) continue;
      const raw: string[] = [];
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = c.segments[i]!;
        const part = parts[i]!;
        if (seg.literal === null) {
          if (part === "") ok = false;
          else raw.push(part);
        } else if (seg.literal !== part) ok = false;
        if (!ok) break;
      }
      if (!ok) continue;
      const handler = c.route.methods[(method === "HEAD" ? "GET" : method) as "GET" | "POST" | "PUT"];
      if (!handler || !(METHOD_ORDER as readonly string[]).includes(method)) return { kind: "method", allow: c.allow };
      return { kind: "found", handler, params: raw.map(decodeSegment) };
    }
    return { kind: "none" };
  }
}

/**
 * Decode one path segment once; an escape that is malformed or not UTF-8 (`%FF`) is a 400.
 * @example decodeSegment("Soybean%20meal%2048%25") // "Soybean meal 48%"
 */
export function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, "Malformed percent-escape in path");
  }
}

import type { Reply } from "./envelope.ts";
import { readJsonObject } from "./body.ts";
import { HttpError } from "./errors.ts";
import { parseInput } from "../schemas/problem.ts";
import { accessOf, type QuerySchema, type RequestContext, type Route } from "./route.ts";

/** One path of the table with every method it serves. */
interface CompiledPath {
  path: string;
  segments: (string | null)[];
  names: string[];
  methods: Map<string, CompiledRoute>;
  allow: string;
  open: boolean;
  quiet: boolean;
}

interface CompiledRoute {
  route: Route;
  /** The parsed empty query, shared by every request without a query string (handlers only read it). */
  emptyQuery: unknown;
  /** Query parameters whose schema is an array: every repeat is kept, not only the last. */
  repeated: Set<string>;
}

export type Match =
  | { kind: "found"; route: CompiledRoute; params: Record<string, string>; quiet: boolean }
  | { kind: "method"; allow: string; quiet: boolean }
  | { kind: "none" };

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT"] as const;
const isV1 = (path: string) => path === "/v1" || path.startsWith("/v1/");

/**
 * The route table, compiled for matching on raw paths: Bun's own routes answer 404 where the spec wants
 * 405 and decode a bad escape to U+FFFD, so matching happens here on the undecoded path and each
 * parameter is decoded once. Routes under /v1 need a key; `open` routes live outside /v1.
 * @example const router = new Router(routes); router.match("GET", "/v1/health")
 */
export class Router {
  private readonly paths: CompiledPath[] = [];

  constructor(readonly routes: readonly Route[]) {
    for (const route of routes) {
      const open = accessOf(route) === "open";
      if (open === isV1(route.path)) throw new Error(`${route.method} ${route.path}: open routes live outside /v1, keyed ones under it`);
      let entry = this.paths.find((p) => p.path === route.path);
      if (!entry) {
        const segments = route.path.slice(1).split("/").map((s) => (s.startsWith(":") ? null : s));
        const names = route.path.slice(1).split("/").filter((s) => s.startsWith(":")).map((s) => s.slice(1));
        entry = { path: route.path, segments, names, methods: new Map(), allow: "", open, quiet: false };
        this.paths.push(entry);
      }
      if (entry.methods.has(route.method)) throw new Error(`${route.method} ${route.path} is declared twice`);
      entry.methods.set(route.method, compileRoute(route));
      entry.quiet ||= route.quiet === true;
      entry.allow = METHOD_ORDER.filter((m) => entry.methods.has(m === "HEAD" ? "GET" : m)).join(", ");
    }
  }

  /**
   * The template of the path a raw path would match (`/v1/ingredients/:name`), without decoding
   * anything; null when none does. For metrics, whose labels must stay a bounded set.
   */
  templateOf(rawPath: string): string | null {
    const parts = rawPath.slice(1).split("/");
    return this.paths.find((entry) => segmentsMatch(entry.segments, parts))?.path ?? null;
  }

  /** Throws HttpError(400) for a malformed escape in a parameter of a matching path. */
  match(method: string, rawPath: string): Match {
    const parts = rawPath.slice(1).split("/");
    for (const entry of this.paths) {
      if (!segmentsMatch(entry.segments, parts)) continue;
      const compiled = entry.methods.get(method === "HEAD" ? "GET" : method);
      if (!compiled) return { kind: "method", allow: entry.allow, quiet: entry.quiet };
      const params: Record<string, string> = {};
      let n = 0;
      for (let i = 0; i < parts.length; i++) if (entry.segments[i] === null) params[entry.names[n++]!] = decodeSegment(parts[i]!);
      return { kind: "found", route: compiled, params, quiet: entry.quiet };
    }
    return { kind: "none" };
  }
}

function segmentsMatch(segments: (string | null)[], parts: string[]): boolean {
  if (segments.length !== parts.length) return false;
  for (let i = 0; i < parts.length; i++) {
    const literal = segments[i];
    if (literal === null ? parts[i] === "" : literal !== parts[i]) return false;
  }
  return true;
}

function compileRoute(route: Route): CompiledRoute {
  const repeated = new Set<string>();
  for (const [name, field] of Object.entries(route.query?.shape ?? {})) if (isArraySchema(field)) repeated.add(name);
  return { route, emptyQuery: route.query ? Object.freeze(parseInput(route.query, {})) : undefined, repeated };
}

/** Whether a query field (possibly optional, defaulted or transformed) takes an array. */
function isArraySchema(field: unknown): boolean {
  type Def = { type: string; innerType?: { def: Def }; in?: { def: Def } };
  let def = (field as { def: Def }).def;
  for (;;) {
    if (def.type === "optional" || def.type === "default" || def.type === "nullable") def = def.innerType!.def;
    else if (def.type === "pipe") def = def.in!.def;
    else return def.type === "array";
  }
}

/**
 * Run a matched route: body (400/413), then the record the path names (404), then the query (400), then
 * the handler (docs/decisions.md#http). Synchronous unless the route reads a body or the handler waits.
 * @example return dispatch(match.route, ctx, match.params, rawQuery)
 */
export function dispatch(compiled: CompiledRoute, ctx: RequestContext, params: Record<string, string>, rawQuery: string): Reply | Promise<Reply> {
  const { route } = compiled;
  if (route.body) {
    const schema = route.body;
    return readJsonObject(ctx.req).then((raw) => finish(compiled, ctx, params, rawQuery, parseInput(schema, raw)));
  }
  return finish(compiled, ctx, params, rawQuery, undefined);
}

function finish(compiled: CompiledRoute, ctx: RequestContext, params: Record<string, string>, rawQuery: string, body: unknown): Reply | Promise<Reply> {
  const { route } = compiled;
  const found = route.lookup ? route.lookup(ctx, params) : undefined;
  if (found instanceof Promise) return found.then((value) => handle(compiled, ctx, params, rawQuery, body, value));
  return handle(compiled, ctx, params, rawQuery, body, found);
}

function handle(compiled: CompiledRoute, ctx: RequestContext, params: Record<string, string>, rawQuery: string, body: unknown, found: unknown): Reply | Promise<Reply> {
  const query = compiled.route.query && rawQuery !== "" ? parseQuery(compiled.route.query, compiled.repeated, rawQuery) : compiled.emptyQuery;
  return compiled.route.handle(ctx, { params, query, body, found });
}

/** Unknown parameters are ignored by the schema; a repeated one keeps its last value unless its schema is an array. */
function parseQuery(schema: QuerySchema, repeated: Set<string>, rawQuery: string): unknown {
  const input: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (repeated.has(name)) ((input[name] as string[] | undefined) ?? (input[name] = [])).push(value);
    else input[name] = value;
  }
  return parseInput(schema, input);
}

/**
 * Decode one path segment once; an escape that is malformed or not UTF-8 (`%FF`) is a 400.
 * @example decodeSegment("Soybean%20meal%2048%25") // "Soybean meal 48%"
 */
export function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  const known = decoded.get(segment);
  if (known !== undefined) return known;
  let name: string;
  try {
    // NFC, as names are stored: `Caf%C3%A9` and `Cafe%CC%81` name the same ingredient.
    name = decodeURIComponent(segment).normalize("NFC");
  } catch {
    throw new HttpError(400, "Malformed percent-escape in path");
  }
  if (decoded.size >= MAX_DECODED) decoded.clear();
  decoded.set(segment, name);
  return name;
}

/**
 * Escaped segments decoded before: a detail GET names the same few thousand records again and again,
 * and decoding with NFC costs several times a lookup. Past the bound all are forgotten (the names are
 * the caller's choice, so the key space is unbounded).
 */
const decoded = new Map<string, string>();
const MAX_DECODED = 10_000;

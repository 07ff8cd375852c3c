/**
 * The answers of `ctx.cached` (src/http/route.ts): a body kept per data generation, and while one is
 * being built, the one build every identical request waits for (single-flight, keyed like the cache:
 * the same generation and cache key name the same body). Three identical optimizations in flight are
 * one solve.
 */
import { jsonReply, noneMatch, PreparedBody, type Reply } from "./envelope.ts";
import type { ReadCache } from "./read-cache.ts";

/** How one request wants its cached answer. */
export interface CachedAsk {
  generation: number;
  key: string;
  build: () => string | Promise<string>;
  /** The envelope's timestamp; undefined for a body without one. */
  timestamp: string | undefined;
  etag: boolean;
  ifNoneMatch: string | null;
  /** Called with the answered body's key (the app remembers it for the cached GET fast path). */
  keep: (bodyKey: string, timed: boolean) => void;
  /** Called once before any work (a build, or waiting for one): the rate limit's last word on a conditional GET. */
  beforeWork: () => void;
}

/**
 * The 200 of a kept body (finished with the timestamp when given), or a 304 when `If-None-Match` names its ETag.
 * @example replyWith(body, "2026-11-23T08:00:00.000Z", true, null).status // 200
 */
export function replyWith(body: PreparedBody, timestamp: string | undefined, etag: boolean, ifNoneMatch: string | null): Reply {
  if (etag && ifNoneMatch !== null && noneMatch(ifNoneMatch, body.etag)) return { status: 304, body: null, headers: body.etagHeader };
  return jsonReply(200, timestamp === undefined ? body.untimed() : body.at(timestamp), etag ? body.etagHeader : undefined);
}

/**
 * A 200 from a kept body (synchronously), or from one built now, or being built for an identical
 * request, and kept for its generation; on a route with `etag`, with its ETag, or a 304.
 * @example const cached = cachedReplies(appCaches().bodies); cached({ generation, key, build, timestamp, etag: true, ifNoneMatch: null, keep, beforeWork })
 */
export function cachedReplies(bodies: ReadCache<PreparedBody>): (ask: CachedAsk) => Reply | Promise<Reply> {
  const building = new Map<string, Promise<PreparedBody>>();

  return (ask) => {
    const { generation, key, timestamp } = ask;
    const reply = (body: PreparedBody): Reply => {
      ask.keep(key, timestamp !== undefined);
      return replyWith(body, timestamp, ask.etag, ask.ifNoneMatch);
    };
    const kept = bodies.peek(generation, key);
    if (kept) return reply(kept);
    ask.beforeWork();
    const flight = `${generation} ${key}`;
    const running = building.get(flight);
    if (running) return running.then(reply);
    const open = ask.build();
    if (typeof open === "string") return reply(bodies.put(generation, key, new PreparedBody(open)));
    const body = open.then((text) => bodies.put(generation, key, new PreparedBody(text)));
    building.set(flight, body);
    // Settled either way, the next request builds anew (or finds the kept body): a failure is not kept.
    const done = () => building.delete(flight);
    body.then(done, done);
    return body.then(reply);
  };
}

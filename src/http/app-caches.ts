/**
 * The four caches of the HTTP surface and their bounds in bytes (docs/decisions.md#bounded-memory):
 * bodies built for a generation, which request (workspace, path, query) was answered with which body,
 * keys looked up, and solves' inputs read from the data (a what-if on the same formula reads nothing). Made once per server; `bytes()` is what they hold now, for metrics.
 */
import type { KeyAuth } from "../store/keys.ts";
import type { PreparedBody } from "./envelope.ts";
import { ReadCache } from "./read-cache.ts";

/** A cached GET's answer, kept by workspace, raw path and query for the generation it was built in. */
export interface Answered {
  /** Its body's key in the bodies cache: the body itself is held there only, so only that cache's bound counts it. */
  bodyKey: string;
  /** Finished with the request's timestamp (all but the price list and history). */
  timed: boolean;
  etag: boolean;
  /** The route's template and whether it is logged, as routing would have set them. */
  route: string;
  quiet: boolean;
}

const MIB = 1024 * 1024;
/** The most each cache holds: 64 MiB of bodies, 8 MiB of answered requests, 1 MiB of keys, 8 MiB of solve inputs (81 MiB in all). */
export const CACHE_BOUNDS = { bodies: 64 * MIB, answered: 8 * MIB, keys: 1 * MIB, inputs: 8 * MIB } as const;
/** A Map entry, its record and the strings' headers, roughly. */
const ENTRY_BYTES = 160;

/** @example const { keys, bodies, answered, inputs } = appCaches() */
export function appCaches() {
  const keys = new ReadCache<KeyAuth>(CACHE_BOUNDS.keys, (header, key) => 2 * (header.length + key.id.length) + ENTRY_BYTES);
  const bodies = new ReadCache<PreparedBody>(CACHE_BOUNDS.bodies, (key, body) => 2 * key.length + body.bytes + ENTRY_BYTES);
  const answered = new ReadCache<Answered>(CACHE_BOUNDS.answered, (key, a) => 2 * (key.length + a.bodyKey.length) + ENTRY_BYTES);
  const inputs = new ReadCache<string>(CACHE_BOUNDS.inputs, (key, text) => 2 * (key.length + text.length) + ENTRY_BYTES);
  return { keys, bodies, answered, inputs, bytes: () => ({ keys: keys.bytes, bodies: bodies.bytes, answered: answered.bytes, inputs: inputs.bytes }) };
}

export type AppCaches = ReturnType<typeof appCaches>;

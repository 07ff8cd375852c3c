/** Milliseconds since the epoch; injected wherever behaviour depends on time so tests need no sleeps. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/**
 * ISO 8601 UTC with milliseconds, the one timestamp form on the wire and in the data file.
 * @example isoTime(0) // "1970-01-01T00:00:00.000Z"
 */
export const isoTime = (ms: number): string => new Date(ms).toISOString();

/**
 * `isoTime` for a clock read many times per millisecond: the string is made once per millisecond.
 * @example const stamp = timestamper(); stamp(Date.now()) // "2026-11-21T14:03:07.123Z"
 */
export function timestamper(): (ms: number) => string {
  let lastMs = Number.NaN;
  let last = "";
  return (ms) => (ms === lastMs ? last : ((lastMs = ms), (last = isoTime(ms))));
}

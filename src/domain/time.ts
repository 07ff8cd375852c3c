/** Milliseconds since the epoch; injected wherever behaviour depends on time so tests need no sleeps. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/**
 * ISO 8601 UTC with milliseconds, the one timestamp form on the wire and in the data file.
 * @example isoTime(0) // "1970-01-01T00:00:00.000Z"
 */
export const isoTime = (ms: number): string => new Date(ms).toISOString();

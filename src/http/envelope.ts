/** The one place that builds response bodies: the success envelope and the error object of the spec. */

export interface EnvelopeExtras {
  count?: number;
  pools?: readonly string[];
  timestamp?: string;
}

/**
 * The envelope without its closing brace or timestamp: the part that depends only on the data, so it
 * can be kept serialized between writes (src/http/read-cache.ts) and finished per request by `closeBody`.
 * @example openBody([{ name: "Maize" }], { count: 1 }) // '{"status":"ok","data":[{"name":"Maize"}],"count":1'
 */
export function openBody(data: unknown, extras: Omit<EnvelopeExtras, "timestamp"> = {}): string {
  const text = JSON.stringify({ status: "ok", data, ...extras });
  return text.slice(0, -1);
}

/**
 * Finish a body from `openBody`, with the request's timestamp where the spec has one.
 * @example closeBody(openBody(data, { count }), "2026-11-21T14:03:07.123Z")
 */
export function closeBody(open: string, timestamp?: string): string {
  return timestamp === undefined ? open + "}" : `${open},"timestamp":"${timestamp}"}`;
}

/**
 * `{status: "ok", data, count?, pools?, timestamp?}` in the spec's field order.
 * @example okBody([{ name: "Maize" }], { count: 1, timestamp })
 */
export function okBody(data: unknown, extras: EnvelopeExtras = {}): string {
  const { timestamp, ...rest } = extras;
  return closeBody(openBody(data, rest), timestamp);
}

/** @example errorBody("Not found") // '{"status":"error","message":"Not found"}' */
export function errorBody(message: string): string {
  return JSON.stringify({ status: "error", message });
}

/**
 * `{status: "ok", version, timestamp}`: the health answer has no `data`, as the spec has it.
 * @example healthBody("1.0.0", "2026-11-21T14:03:07.123Z")
 */
export function healthBody(version: string, timestamp: string): string {
  return JSON.stringify({ status: "ok", version, timestamp });
}

const JSON_TYPE = "application/json";

/**
 * A JSON response; headers of the request context (request id, rate limit) are added by the server.
 * @example jsonResponse(201, okBody(detail), { Location: "/v1/ingredients/Maize" })
 */
export function jsonResponse(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "Content-Type": JSON_TYPE, ...headers } });
}

/** The one place that builds response bodies: the success envelope and the error object of the spec. */

export interface EnvelopeExtras {
  count?: number;
  pools?: readonly string[];
  timestamp?: string;
}

/**
 * `{status: "ok", data, count?, pools?, timestamp?}` in the spec's field order.
 * @example okBody([{ name: "Maize" }], { count: 1, timestamp }) 
 */
export function okBody(data: unknown, extras: EnvelopeExtras = {}): string {
  return JSON.stringify({ status: "ok", data, ...extras });
}

/** @example errorBody("Not found") // '{"status":"error","message":"Not found"}' */
export function errorBody(message: string): string {
  return JSON.stringify({ status: "error", message });
}

const JSON_TYPE = "application/json";

/**
 * A JSON response; headers of the request context (request id, rate limit) are added by the server.
 * @example jsonResponse(201, okBody(detail), { Location: "/v1/ingredients/Maize" })
 */
export function jsonResponse(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "Content-Type": JSON_TYPE, ...headers } });
}

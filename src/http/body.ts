import { HttpError } from "./errors.ts";

/** docs/decisions.md#http: exactly 1 MiB is accepted, one byte more is refused. */
export const MAX_BODY_BYTES = 1_048_576;

/** A chunked body past the limit is read on (so the connection stays in step) up to this much, then the connection is closed. */
const DRAIN_BYTES = 16 * MAX_BODY_BYTES;

/** The unread rest of the body is not wanted: the connection closes after the answer. */
const tooLarge = () => new HttpError(413, "Request body too large", { Connection: "close" });

/**
 * Read a request body as a JSON object, enforcing the 1 MiB limit on the bytes received (a larger
 * Content-Length is refused before reading). Any Content-Type is parsed as JSON.
 * @example const body = await readJsonObject(req) // Record<string, unknown>
 */
export async function readJsonObject(req: Request): Promise<Record<string, unknown>> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const bytes = declared !== null ? new Uint8Array(await req.arrayBuffer()) : await readCapped(req);
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new HttpError(400, "Request body must be valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HttpError(400, "Request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/**
 * A chunked body has no length to check up front: count as it streams and keep nothing past the limit.
 * The rest is drained rather than abandoned, because Bun would otherwise read the unread chunks as the
 * next request on the same connection; past DRAIN_BYTES the answer closes the connection instead.
 */
async function readCapped(req: Request): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of req.body) {
    total += chunk.byteLength;
    if (total <= MAX_BODY_BYTES) chunks.push(chunk);
    else if (total > DRAIN_BYTES) throw tooLarge();
  }
  if (total > MAX_BODY_BYTES) throw tooLarge();
  return Buffer.concat(chunks);
}

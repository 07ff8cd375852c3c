import type { Server } from "bun";
import type { AppFetch } from "./app.ts";

export interface HttpServerOptions {
  /** The HTTP surface (src/http/app.ts `createFetch`). */
  fetch: AppFetch;
  host: string;
  port: number;
  tls?: { cert: string; key: string };
}

/**
 * The HTTP surface on a socket.
 * @example const server = startHttpServer({ fetch: createFetch(deps), host: "127.0.0.1", port: 0 })
 */
export function startHttpServer(options: HttpServerOptions): Server<undefined> {
  return Bun.serve({
    hostname: options.host,
    port: options.port,
    development: false,
    // Bun sets SO_REUSEPORT unless told not to (with development off): a second serve on the same port
    // would start and take half the connections. Refused instead (EADDRINUSE).
    reusePort: false,
    // Bun answers a Content-Length above this itself, with a bare 413 (no error object, no request id):
    // set out of reach, so src/http/body.ts judges every length and answers with the error object.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    ...(options.tls ? { tls: { cert: options.tls.cert, key: options.tls.key } } : {}),
    fetch(req, server) {
      const ip = server.requestIP(req);
      return options.fetch(req, ip === null ? undefined : `${ip.address}:${ip.port}`);
    },
  });
}

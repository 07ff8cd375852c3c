import type { Server } from "bun";
import { MAX_BODY_BYTES } from "./body.ts";
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
    // Only a backstop: the 1 MiB limit with its error object is enforced in src/http/body.ts.
    maxRequestBodySize: MAX_BODY_BYTES * 16,
    ...(options.tls ? { tls: { cert: options.tls.cert, key: options.tls.key } } : {}),
    fetch(req, server) {
      const ip = server.requestIP(req);
      return options.fetch(req, ip === null ? undefined : `${ip.address}:${ip.port}`);
    },
  });
}

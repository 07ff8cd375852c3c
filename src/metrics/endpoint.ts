import { createHash, timingSafeEqual } from "node:crypto";
import type { ServiceMetrics } from "./service-metrics.ts";

/** What the `/metrics` route needs: who may scrape, and the text. */
export interface MetricsEndpoint {
  /** True when no token is configured, or the header is `Bearer <token>`. */
  authorized(authorization: string | null): boolean;
  render(): Promise<string>;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * `GET /metrics` over the service's metrics, guarded by a bearer token when one is given
 * (compared in constant time, as digests of equal length).
 * @example const endpoint = metricsEndpoint(metrics, "s3cret-token"); endpoint.authorized("Bearer s3cret-token") // true
 */
export function metricsEndpoint(metrics: ServiceMetrics, token: string | null): MetricsEndpoint {
  const expected = token === null ? null : digest(token);
  return {
    authorized(authorization) {
      if (expected === null) return true;
      const given = /^Bearer +(\S+)\s*$/i.exec(authorization ?? "")?.[1];
      return given !== undefined && timingSafeEqual(digest(given), expected);
    },
    render: () => metrics.render(),
  };
}

import { documentedErrors } from "../../src/http/openapi.ts";
import { routes } from "../../src/http/routes/index.ts";
import { Router } from "../../src/http/router.ts";
import { firstProblem } from "../../src/schemas/problem.ts";

const router = new Router(routes);

/**
 * Check one answer against the route table: a 2xx has the route's status and its body passes the
 * route's response schema; an error is one the route documents. The harness runs it on every answer
 * its `request` gets, so the whole suite checks the table against what the server really sends.
 * A route's `etag` must match what it does: its 200s carry an ETag, and only such a route answers 304.
 * @example checkContract("GET", "/v1/prices?inStock=true", 200, await res.clone().text(), res.headers.get("etag"))
 */
export function checkContract(method: string, target: string, status: number, text: string, etag: string | null = null): void {
  const path = target.split("?")[0]!;
  let match: ReturnType<Router["match"]>;
  try {
    match = router.match(method, path);
  } catch {
    return; // a malformed escape: the route is unknown, the 400 is the http-core tests' business
  }
  const where = `${method} ${target} answered ${status}`;
  if (match.kind === "none") {
    if (status !== 404 && status !== 401) throw new Error(`${where}: an unknown path answers 401 or 404`);
    return;
  }
  if (match.kind === "method") {
    if (status !== 405 && status !== 401) throw new Error(`${where}: a method the path does not serve answers 401 or 405`);
    return;
  }
  const route = match.route.route;
  if (status === 304) {
    if (!route.etag) throw new Error(`${where}: only a route with etag answers 304`);
    return;
  }
  if (status < 300) {
    if (status !== route.response.status && !(status === 201 && route.response.created)) throw new Error(`${where}: the route table says ${route.response.status}`);
    if ((method === "GET" || method === "HEAD") && (etag !== null) !== (route.etag === true)) {
      throw new Error(`${where}: ${etag === null ? "no ETag, though the route declares etag" : "an ETag, though the route does not declare etag"}`);
    }
    if (method === "HEAD") return;
    const body = route.response.contentType === "text/plain" ? text : JSON.parse(text);
    const result = route.response.schema.safeParse(body);
    if (!result.success) throw new Error(`${where}: body breaks the response schema: ${firstProblem(result.error.issues, body)}`);
    return;
  }
  if (!documentedErrors(route).includes(status)) throw new Error(`${where}: not among the route's documented errors ${documentedErrors(route).join(", ")}`);
}

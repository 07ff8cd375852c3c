/**
 * The console as dist/feedbase serves it: `/` redirects, the page and its hashed assets come from the
 * executable with the console's security headers (CSP, nosniff, no referrer), assets cached for good
 * and gzipped when asked, the page never cached, an unknown asset a 404 (never the page), and
 * `serve --console off` (or FEEDBASE_CONSOLE=off) answers 404 on every console path.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, spawnServe, tempDir, type ServeProcess } from "./helpers/harness.ts";

const EXE = join(ROOT, "dist", "feedbase");
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

let tmp: ReturnType<typeof tempDir>;
let s: ServeProcess;
beforeAll(async () => {
  if (!existsSync(EXE)) throw new Error("dist/feedbase is missing: make test builds it first");
  tmp = tempDir();
  s = await spawnServe(tmp.dataPath, { command: [EXE] });
});
afterAll(async () => {
  await s?.stop();
  tmp?.cleanup();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(s.url + path, { headers, redirect: "manual" });
function secured(res: Response): void {
  expect(res.headers.get("content-security-policy")).toBe(CSP);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
}
/** The asset paths the page names (script, stylesheet, icon). */
async function assetsOf(html: string): Promise<string[]> {
  return [...html.matchAll(/(?:src|href)="(\/console\/[^"]+)"/g)].map((m) => m[1]!);
}

describe("the console in the executable", () => {
  test("GET / redirects to /console/, and every path under /console/ is the page, not cached", async () => {
    const root = await get("/");
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/console/");
    secured(root);
    for (const path of ["/console/", "/console/formulas/broiler-starter", "/console/ingredients/Soybean%20meal%2048%25"]) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toStartWith("text/html");
      expect(page.headers.get("cache-control")).toBe("no-store");
      secured(page);
      expect(await page.text()).toContain('<div id="app">');
    }
  });

  test("the page's script, stylesheet and icon are served under /console/, immutable, gzipped when accepted", async () => {
    const html = await (await get("/console/")).text();
    const assets = await assetsOf(html);
    expect(assets.map((a) => a.split(".").pop()).sort()).toEqual(["css", "js", "svg"]);
    for (const path of assets) {
      const plain = await get(path, { "Accept-Encoding": "identity" });
      expect(plain.status).toBe(200);
      expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(plain.headers.get("etag")).toMatch(/^".+"$/);
      secured(plain);
      const body = new Uint8Array(await plain.arrayBuffer());
      if (!path.endsWith(".js")) continue;
      expect(plain.headers.get("content-type")).toStartWith("text/javascript");
      // fetch undoes the gzip: the same bytes either way.
      const zipped = await get(path, { "Accept-Encoding": "gzip" });
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      expect(new Uint8Array(await zipped.arrayBuffer())).toEqual(body);
    }
  });

  test("an unknown asset name is a 404 with the same headers, and only GET and HEAD are answered", async () => {
    const missing = await get("/console/chunk-00000000.js");
    expect(missing.status).toBe(404);
    secured(missing);
    const post = await fetch(s.url + "/console/", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  test("nothing of the console needs a key, and the API beside it is unchanged", async () => {
    expect((await get("/v1/prices")).status).toBe(401);
    expect((await get("/healthz")).status).toBe(200);
  });

  test("serve --console off and FEEDBASE_CONSOLE=off answer 404 at / and under /console/", async () => {
    for (const options of [{ args: ["--console", "off"] }, { env: { FEEDBASE_CONSOLE: "off" } }]) {
      const off = await spawnServe(tmp.dataPath, { command: [EXE], ...options });
      try {
        for (const path of ["/", "/console/", "/console/formulas"]) expect((await fetch(off.url + path, { redirect: "manual" })).status).toBe(404);
        expect((await fetch(off.url + "/healthz")).status).toBe(200);
      } finally {
        await off.stop();
      }
    }
  });
});

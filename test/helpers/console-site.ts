/**
 * The demo served by the compiled executable, for the console's browser tests: `feedbase demo` into a
 * temporary file, keys with room for a test's requests, `dist/feedbase serve` on a free port. Only the
 * executable serves the console as it ships (the embedded, hashed assets and their headers).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Watch } from "./browser.ts";
import { cli, ROOT, spawnServe, tempDir, type ServeProcess } from "./harness.ts";

export const EXE = join(ROOT, "dist", "feedbase");

export interface ConsoleSite {
  url: string;
  readKey: string;
  writeKey: string;
  dataPath: string;
  serve: ServeProcess;
  /** A /v1 answer's JSON with a key, as the console would get it. */
  api<T = unknown>(path: string, key?: string): Promise<T>;
  /**
   * The console errors of a page that are not expected. GET /v1/nutrients is being added beside the
   * console; while this server has not got it, the browser's log line for its 404 is the one let through.
   */
  unexpected(watch: Watch): Promise<string[]>;
  /** One more key straight from the CLI. */
  key(options?: { write?: boolean; rateLimit?: number }): Promise<string>;
  stop(): Promise<void>;
}

/** @example const site = await startConsoleSite(); ... await site.stop() */
export async function startConsoleSite(options: { args?: string[] } = {}): Promise<ConsoleSite> {
  if (!existsSync(EXE)) throw new Error("dist/feedbase is missing: run make build (make test-console does)");
  const tmp = tempDir();
  const exe = (args: string[]) => cli(args, { command: [EXE] });
  const demo = await exe(["demo", "--data", tmp.dataPath]);
  if (demo.code !== 0) throw new Error(`feedbase demo failed: ${demo.stderr}`);
  const key = async ({ write = false, rateLimit = 100_000 } = {}) => {
    const made = await exe(["key", "create", "--data", tmp.dataPath, "--rate-limit", String(rateLimit), "--label", "console test", "--json", ...(write ? ["--write"] : [])]);
    if (made.code !== 0) throw new Error(`key create failed: ${made.stderr}`);
    return (JSON.parse(made.stdout) as { key: string }).key;
  };
  const readKey = await key();
  const writeKey = await key({ write: true });
  const serve = await spawnServe(tmp.dataPath, { command: [EXE], args: ["--access-log", "off", ...(options.args ?? [])] });
  return {
    url: serve.url,
    readKey,
    writeKey,
    dataPath: tmp.dataPath,
    serve,
    key,
    async api<T>(path: string, k = readKey) {
      const res = await fetch(serve.url + path, { headers: { "X-API-Key": k } });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async unexpected(watch: Watch) {
      const missing = (await fetch(`${serve.url}/v1/nutrients`, { headers: { "X-API-Key": readKey } })).status === 404;
      return watch.errors.filter((e) => !(missing && e.includes("404") && e.endsWith("/v1/nutrients)")));
    },
    async stop() {
      await serve.stop();
      tmp.cleanup();
    },
  };
}

/**
 * A month's plan of two broiler feeds (1,200 t starter, 3,000 t grower) that share the ingredient they
 * use most, of which there is 90 % of what they would take (every ingredient in stock a candidate): a
 * supply that binds. For the screenshots and the console bench; open it with `?candidates=all`.
 * @example await putSharedPlan(site, "december", "December")
 */
export async function putSharedPlan(site: ConsoleSite, id: string, name: string): Promise<void> {
  const put = (body: unknown) =>
    fetch(`${site.url}/v1/plans/${id}`, { method: "PUT", headers: { "X-API-Key": site.writeKey, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const lines = [
    { formula: "broiler-starter", tons: 1200 },
    { formula: "broiler-grower", tons: 3000 },
  ];
  await put({ name, lines });
  const free = await site.api<{ data: { usage: { name: string; tons: number }[] } }>(`/v1/plans/${id}/optimize?candidates=all`);
  const most = [...free.data.usage].sort((a, b) => b.tons - a.tons)[0]!;
  await put({ name, lines, supply: [{ name: most.name, minTons: null, maxTons: Math.floor(most.tons * 0.9) }] });
}

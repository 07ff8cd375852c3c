/**
 * SQLite only: `make run` serves an SQLite data file (its recipe passes --data), so these run the
 * Makefile's own command lines on one. The demo itself runs on both backends (test/demo.test.ts).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cli, ROOT, spawnServe, tempDir } from "./helpers/harness.ts";
import { DEMO_FORMULAS, DEMO_INGREDIENTS } from "./helpers/demo.ts";

// CLI subprocesses and a serve process: on a loaded 2-core machine they need headroom.
setDefaultTimeout(60_000);

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe("make run on a new data file", () => {
  test("the Makefile's demo then serve; the printed curl lines work against the server", async () => {
    const data = join(tmp.dir, "run", "feedbase.db");
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port;
    await probe.stop(true);

    // The commands `make run` runs, read from the Makefile itself (make -n prints without running).
    const recipe = Bun.spawnSync(["make", "-n", "run", `DATA=${data}`, `PORT=${port}`], { cwd: ROOT }).stdout.toString();
    const demoArgs = new RegExp(`\\bdist/feedbase (demo --data ${data} --port ${port});`).exec(recipe)?.[1];
    const serveArgs = new RegExp(`exec dist/feedbase (serve --data ${data} --port ${port})$`, "m").exec(recipe)?.[1];
    expect(demoArgs).toBe(`demo --data ${data} --port ${port}`);
    expect(serveArgs).toBe(`serve --data ${data} --port ${port}`);

    mkdirSync(join(tmp.dir, "run")); // the recipe's `mkdir -p $(dir $(DATA))`
    const demo = await cli(demoArgs!.split(" "));
    expect(demo.code).toBe(0);
    const server = await spawnServe(data, { args: serveArgs!.split(" ").slice(1) });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}`);
      const lines = demo.stdout.split("\n").filter((l) => l.trim().startsWith("curl "));
      expect(lines.length).toBeGreaterThanOrEqual(8);
      const results = new Map<string, { status: number; body: { count?: number; data: unknown } }>();
      for (const line of lines) {
        const key = /X-API-Key: (fbk_\w+)/.exec(line)![1]!;
        const url = /'?(http:\/\/127\.0\.0\.1:\d+\/v1\/[^' ]+)'?$/.exec(line)![1]!;
        const method = /-X (\w+)/.exec(line)?.[1] ?? "GET";
        const body = /-d '([^']+)'/.exec(line)?.[1];
        const res = await fetch(url, { method, headers: { "X-API-Key": key }, ...(body ? { body } : {}) });
        results.set(`${method} ${new URL(url).pathname}`, { status: res.status, body: await res.json() });
      }
      for (const [request, { status }] of results) expect({ request, status }).toEqual({ request, status: 200 });
      // The console's address as printed is the console's page.
      const consoleUrl = /^The console, once the server above is running: (http:\/\/\S+) /m.exec(demo.stdout)?.[1];
      expect(consoleUrl).toBe(`${server.url}/console/`);
      const page = await fetch(consoleUrl!);
      expect({ status: page.status, type: page.headers.get("content-type") }).toEqual({ status: 200, type: "text/html;charset=utf-8" });
      expect(results.get("GET /v1/ingredients")!.body.count).toBe(DEMO_INGREDIENTS);
      expect(results.get("GET /v1/formulas")!.body.count).toBe(DEMO_FORMULAS);
      expect(results.get("GET /v1/formulas/broiler-starter")!.body.data).toMatchObject({ id: "broiler-starter", species: "Poultry" });
      expect(results.get("PUT /v1/prices/Soybean%20meal%2048%25")!.body.data).toMatchObject({ name: "Soybean meal 48%" });
      // A few months of weekly demo prices, the newest today's; costs and the report have moved.
      const history = (results.get("GET /v1/prices/Soybean%20meal%2048%25")!.body.data as { price: number; history: { price: number; at: string; source: string }[] });
      expect(history.history.length).toBeGreaterThanOrEqual(13);
      expect(new Set(history.history.map((e) => e.source))).toEqual(new Set(["demo"]));
      const weeks = (Date.parse(history.history[0]!.at) - Date.parse(history.history.at(-1)!.at)) / (7 * 24 * 3600 * 1000);
      expect(weeks).toBeGreaterThanOrEqual(12);
      expect(results.get("GET /v1/formulas/broiler-starter/cost")!.body.data).toMatchObject({ id: "broiler-starter" });
      expect(results.get("GET /v1/reports/cost-changes")!.body.count).toBeGreaterThan(0);
      // The integrator guide's history and cost examples work against the demo as printed.
      const readKey = /X-API-Key: (fbk_\w+)/.exec(lines[0]!)![1]!;
      const guide = readFileSync(join(ROOT, "docs/integrators.md"), "utf8");
      const examples = [...guide.matchAll(/^curl -s "?\$FEEDBASE(\/v1\/(?:prices|formulas\/[^/ "]+\/cost|reports\/cost-changes)[^" ]*)"? -H "X-API-Key: \$KEY"$/gm)].map((m) => m[1]!);
      expect(examples.length).toBeGreaterThanOrEqual(7);
      for (const path of examples) {
        const res = await fetch(server.url + path, { headers: { "X-API-Key": readKey } });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe("make run and the admin commands", () => {
  test("serve the file the admin commands read by default, and print them with its --data", async () => {
    const defaultRecipe = Bun.spawnSync(["make", "-n", "run"], { cwd: ROOT }).stdout.toString();
    const served = /exec dist\/feedbase serve --data (\S+)/.exec(defaultRecipe)?.[1];
    const help = await cli(["key", "list", "--help"]);
    const cliDefault = /--data <file>.*\(default: "([^"]+)"/.exec(help.stdout)?.[1];
    expect(served).toMatch(/\.db$/);
    expect(cliDefault).toMatch(/\.db$/);
    expect(join(ROOT, served!)).toBe(join(ROOT, cliDefault!));

    const data = join(tmp.dir, "admin", "feedbase.db");
    const recipe = Bun.spawnSync(["make", "-n", "run", `DATA=${data}`], { cwd: ROOT }).stdout.toString();
    const printed = [...recipe.matchAll(/^echo " {2}dist\/feedbase (.+)"$/gm)].map((m) => m[1]!);
    expect(printed.map((p) => p.split(" --data ")[0])).toEqual(["key create --write", "key list", "webhook add http://127.0.0.1:9090/", "webhook deliveries"]);
    mkdirSync(join(tmp.dir, "admin"));
    expect((await cli(["demo", "--data", data])).code).toBe(0);
    // Each printed command, run as printed, works on the served file.
    for (const line of printed) {
      const r = await cli(line.split(" "));
      expect({ line, code: r.code, stderr: r.stderr }).toEqual({ line, code: 0, stderr: "" });
    }
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, eventually, ROOT, spawnServe, startTestServer, tempDir, TestClock, type TestServer } from "./helpers/harness.ts";
import { KEY_OVERHEAD_BYTES } from "../src/limiter/sliding-window.ts";
import { POSTGRES_MODE } from "./helpers/postgres.ts";
import { startRecorder, type Recorder } from "./helpers/webhooks.ts";

const TOKEN = "scrape-token-0123456789";

/** `name{labels}` → value, from the text format. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

function promtool(args: string[], stdin?: string) {
  const r = Bun.spawnSync(["promtool", ...args], { cwd: ROOT, stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
}

describe("GET /metrics", () => {
  let t: TestServer;
  let good: Recorder;
  let bad: Recorder;
  let badHook: string;
  const clock = new TestClock();
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const scrape = async () => {
    const res = await t.request("GET", "/metrics", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    return res.text();
  };

  beforeAll(async () => {
    // One retry a day later: a failed delivery stays pending while the clock moves two hours.
    t = await startTestServer({ clock, metrics: { token: TOKEN }, webhooks: { retrySchedule: [86_400] } });
    good = startRecorder();
    bad = startRecorder(() => new Response(null, { status: 500 }));
    expect((await cli(["webhook", "add", good.url, "--data", t.dataPath, "--json"])).code).toBe(0);
    badHook = JSON.parse((await cli(["webhook", "add", bad.url, "--data", t.dataPath, "--json"])).stdout).id;
  });
  afterAll(async () => {
    await t.stop();
    await good.stop();
    await bad.stop();
  });

  test("needs the bearer token when one is configured", async () => {
    for (const headers of [{}, { Authorization: "Bearer wrong-token" }, { Authorization: TOKEN }] as Record<string, string>[]) {
      const res = await t.request("GET", "/metrics", { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
    }
  });

  test("counters move with requests, deliveries, refusals and commits; promtool check metrics passes on the scrape", async () => {
    const before = samples(await scrape());
    const write = t.key({ write: true });
    const limited = t.key({ rateLimit: 1 });
    expect((await t.request("POST", "/v1/ingredients", { key: write, body: { name: "Maize", price: 200 } })).status).toBe(201);
    expect((await t.request("PUT", "/v1/prices/Maize", { key: write, body: { price: 210 } })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await t.request("GET", "/v1/ingredients", { key: write })).status).toBe(200);
    expect((await t.request("GET", "/v1/health", { key: limited })).status).toBe(200);
    expect((await t.request("GET", "/v1/health", { key: limited })).status).toBe(401);
    // Names and unknown paths do not make series: 30 names are one route template, 20 paths one "unmatched".
    for (let i = 0; i < 30; i++) expect((await t.request("GET", `/v1/ingredients/name-${i}`, { key: write })).status).toBe(404);
    for (let i = 0; i < 20; i++) expect((await t.request("GET", `/unknown-${i}`)).status).toBe(404);
    // The failing receiver gets the first event only: the price change waits behind it (same ingredient).
    await eventually(() => good.requests.length === 2 && bad.requests.length === 1);

    let text = "";
    let after = new Map<string, number>();
    await eventually(async () => {
      after = samples((text = await scrape()));
      // The receivers count a request when it arrives; its outcome is recorded just after.
      const delivered = (after.get('feedbase_webhook_deliveries_total{outcome="delivered"}') ?? 0) - (before.get('feedbase_webhook_deliveries_total{outcome="delivered"}') ?? 0);
      return after.get('feedbase_webhook_deliveries_total{outcome="retry"}') === 1 && delivered === 2;
    });
    const moved = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    expect(moved('feedbase_http_requests_total{route="/v1/ingredients",method="GET",status="200"}')).toBe(3);
    expect(moved('feedbase_http_requests_total{route="/v1/ingredients",method="POST",status="201"}')).toBe(1);
    expect(moved('feedbase_http_requests_total{route="/v1/prices/:name",method="PUT",status="200"}')).toBe(1);
    expect(moved('feedbase_http_requests_total{route="/v1/health",method="GET",status="401"}')).toBe(1);
    expect(moved('feedbase_http_requests_total{route="/v1/ingredients/:name",method="GET",status="404"}')).toBe(30);
    expect(moved('feedbase_http_requests_total{route="unmatched",method="GET",status="404"}')).toBe(20);
    expect(moved('feedbase_http_request_duration_seconds_count{route="/v1/ingredients/:name"}')).toBe(30);
    expect(moved("feedbase_rate_limit_refusals_total")).toBe(1);
    // Two new keys in the limiter: the write key's first ring (4 slots) and the limited key's (1 slot, its limit).
    expect(moved("feedbase_rate_limiter_bytes")).toBeGreaterThanOrEqual(8 * (2 + 4) + 8 * (2 + 1) + 2 * KEY_OVERHEAD_BYTES);
    expect(moved('feedbase_webhook_deliveries_total{outcome="delivered"}')).toBe(2);
    expect(moved('feedbase_webhook_deliveries_total{outcome="retry"}')).toBe(1);
    expect(moved("feedbase_group_commit_batch_size_count")).toBeGreaterThanOrEqual(3);
    expect(after.get(`feedbase_webhook_pending_deliveries{webhook="${badHook}"}`)).toBe(2);
    // On PostgreSQL the database's files are not the service's: no file gauges (docs/decisions.md#serving-from-postgresql).
    if (POSTGRES_MODE) expect(after.has("feedbase_data_file_bytes")).toBe(false);
    else expect(after.get("feedbase_data_file_bytes")).toBeGreaterThan(0);
    expect(after.get('feedbase_readiness_check_failed{check="storage full"}')).toBe(0);
    expect([...after.keys()].some((k) => k.startsWith('feedbase_build_info{version="'))).toBe(true);
    expect(text).not.toContain("name-1");
    expect(text).not.toContain("unknown-1");

    const checked = promtool(["check", "metrics"], text);
    expect(checked.out).toBe("");
    expect(checked.code).toBe(0);
  });

  test("the oldest pending delivery's age follows the clock", async () => {
    clock.advance(2 * 3600_000);
    const now = samples(await scrape());
    expect(now.get(`feedbase_webhook_oldest_pending_age_seconds{webhook="${badHook}"}`)).toBe(7200);
    const others = [...now].filter(([k]) => k.startsWith("feedbase_webhook_oldest_pending_age_seconds{") && !k.includes(badHook));
    expect(others.map(([, v]) => v)).toEqual([0]);
  });
});

describe("serve --metrics", () => {
  test("off by default: /metrics is not found", async () => {
    const t = await startTestServer();
    try {
      expect((await t.request("GET", "/metrics")).status).toBe(404);
    } finally {
      await t.stop();
    }
  });

  test("the executable's flags and variables: FEEDBASE_METRICS=on with a token file", async () => {
    const tmp = tempDir();
    try {
      const tokenFile = join(tmp.dir, "metrics.token");
      writeFileSync(tokenFile, `${TOKEN}\n`);
      const s = await spawnServe(tmp.dataPath, { env: { FEEDBASE_METRICS: "on", FEEDBASE_METRICS_TOKEN_FILE: tokenFile } });
      try {
        expect((await fetch(s.url + "/metrics")).status).toBe(401);
        const res = await fetch(s.url + "/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } });
        expect(res.status).toBe(200);
        expect(promtool(["check", "metrics"], await res.text()).code).toBe(0);
      } finally {
        expect(await s.stop()).toBe(0);
      }
      const alone = await cli(["serve", "--port", "0", "--data", tmp.dataPath, "--metrics-token-file", tokenFile]);
      expect(alone.code).toBe(1);
      expect(alone.stderr).toContain("--metrics-token-file goes with --metrics");
      writeFileSync(tokenFile, "\n");
      const empty = await cli(["serve", "--port", "0", "--data", tmp.dataPath, "--metrics", "--metrics-token-file", tokenFile]);
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain("is empty");
    } finally {
      tmp.cleanup();
    }
  });
});

describe("deploy/prometheus", () => {
  test("promtool checks the alert rules, runs their unit tests, and checks the scrape config", () => {
    expect(promtool(["check", "rules", "deploy/prometheus/feedbase-alerts.yml"]).code).toBe(0);
    const tested = promtool(["test", "rules", "test/prometheus/alerts.test.yml"]);
    expect(tested.out).toContain("SUCCESS");
    expect(tested.code).toBe(0);
    // The config names a token file of the installed system: checked with one made here in its place.
    const tmp = tempDir();
    try {
      const token = join(tmp.dir, "feedbase-metrics.token");
      writeFileSync(token, TOKEN);
      copyFileSync(join(ROOT, "deploy/prometheus/feedbase-alerts.yml"), join(tmp.dir, "feedbase-alerts.yml"));
      const config = readFileSync(join(ROOT, "deploy/prometheus/prometheus.yml"), "utf8").replace("/etc/prometheus/feedbase-metrics.token", token);
      expect(config).toContain(token);
      writeFileSync(join(tmp.dir, "prometheus.yml"), config);
      const checked = promtool(["check", "config", join(tmp.dir, "prometheus.yml")]);
      expect(checked.out).toContain("SUCCESS: 2 rules found");
      expect(checked.code).toBe(0);
    } finally {
      tmp.cleanup();
    }
  });
});

import { describe, expect, test } from "bun:test";
import { processIo } from "../cli/io.ts";
import { buildProgram } from "../cli/program.ts";
import { createLogger, jsonString } from "../src/log.ts";
import { startService } from "../src/service.ts";
import { cli, eventually, spawnServe, tempDir } from "./helpers/harness.ts";
import { dataLocation } from "./helpers/postgres.ts";

const lines = (text: string) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe("serve's log settings", () => {
  test("every serve option can also come from a FEEDBASE_ environment variable", async () => {
    const serve = (await buildProgram(processIo)).commands.find((c) => c.name() === "serve")!;
    const options = serve.options.filter((o) => o.long !== "--help");
    expect(options.length).toBeGreaterThan(8);
    for (const option of options) expect({ option: option.long, env: option.envVar }).toEqual({ option: option.long, env: expect.stringMatching(/^FEEDBASE_[A-Z_]+$/) });
  });

  test("FEEDBASE_ACCESS_LOG=off drops request lines, a refusal still writes its one warn line, debug shows the settings", async () => {
    const tmp = tempDir();
    try {
      const env = { FEEDBASE_ACCESS_LOG: "off", FEEDBASE_LOG_LEVEL: "debug", FEEDBASE_RETENTION_DAYS: "7" };
      const s = await spawnServe(tmp.dataPath, { env });
      try {
        const key = JSON.parse((await cli(["key", "create", "--rate-limit", "1", "--json", "--data", tmp.dataPath])).stdout).key;
        const ok = await fetch(s.url + "/v1/health", { headers: { "X-API-Key": key } });
        const refused = await fetch(s.url + "/v1/health", { headers: { "X-API-Key": key } });
        expect([ok.status, refused.status]).toEqual([200, 401]);
        const refusedId = refused.headers.get("x-request-id");
        let logged: Record<string, unknown>[] = [];
        await eventually(() => (logged = lines(s.output())).some((l) => l.requestId === refusedId));
        expect(logged.filter((l) => l.msg === "request")).toEqual([]);
        expect(logged.filter((l) => l.requestId === refusedId)).toEqual([
          expect.objectContaining({ level: "warn", msg: "rate limit exceeded", status: 401, limit: 1 }),
        ]);
        expect(logged.find((l) => l.msg === "settings")).toMatchObject({ level: "debug", logLevel: "debug", accessLog: false, retentionDays: 7 });
      } finally {
        expect(await s.stop()).toBe(0);
      }
    } finally {
      tmp.cleanup();
    }
  });

  test("--log-level warn keeps warnings and drops info lines", async () => {
    const tmp = tempDir();
    let text = "";
    const service = await startService({ data: dataLocation(tmp.dataPath), host: "127.0.0.1", port: 0, logger: createLogger((t) => (text += t), undefined, "warn") });
    try {
      const key = JSON.parse((await cli(["key", "create", "--rate-limit", "1", "--json", "--data", tmp.dataPath])).stdout).key;
      const url = `http://127.0.0.1:${service.port}/v1/health`;
      expect((await fetch(url, { headers: { "X-API-Key": key } })).status).toBe(200);
      expect((await fetch(url, { headers: { "X-API-Key": key } })).status).toBe(401);
      service.logger.flush();
      expect(lines(text).map((l) => [l.level, l.msg])).toEqual([["warn", "rate limit exceeded"]]);
    } finally {
      await service.stop();
      tmp.cleanup();
    }
  });

  test("on/off settings from the environment: 0 and off mean off, a word outside the set is a usage error", async () => {
    const off = await cli(["serve", "--host", "0.0.0.0", "--port", "0"], { env: { FEEDBASE_INSECURE_HTTP: "0" } });
    expect(off.code).toBe(1);
    expect(off.stderr).toContain("Refusing plain HTTP on 0.0.0.0");
    const bad = await cli(["serve", "--port", "0"], { env: { FEEDBASE_ACCESS_LOG: "sometimes" } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--access-log must be on or off");
    const level = await cli(["serve", "--port", "0"], { env: { FEEDBASE_LOG_LEVEL: "verbose" } });
    expect(level.code).toBe(2);
    expect(level.stderr).toContain("--log-level must be one of debug, info, warn, error");
    const half = await cli(["serve", "--port", "0"], { env: { FEEDBASE_TLS_CERT: "/nonexistent/cert.pem" } });
    expect(half.code).toBe(1);
    expect(half.stderr).toContain("--tls-cert and --tls-key go together");
  });
});

describe("log lines", () => {
  test("time, level and msg come first and a caller's fields cannot overwrite them", () => {
    let text = "";
    const logger = createLogger((t) => (text += t), () => Date.parse("2026-11-21T12:00:00.000Z"));
    logger.log("warn", "webhook attempt", { msg: "forged", level: "debug", time: "yesterday", deliveryId: "dlv_1" });
    expect(text).toBe('{"time":"2026-11-21T12:00:00.000Z","level":"warn","msg":"webhook attempt","deliveryId":"dlv_1"}\n');
  });

  test("a field written as JSON text is JSON.stringify's text, whatever characters it has", () => {
    const strings = ["key_3hT9aQ0xLw2M", "/v1/ingredients/Maize%20meal", "", 'say "hi"', "back\\slash", "tab\there", "\u0000\u001f\u007f", "Maïs", "\u202e", "\ud800 lone", "😀", "~ !#[]{}"];
    for (const s of strings) expect({ s, json: jsonString(s) }).toEqual({ s, json: JSON.stringify(s) });
  });
});

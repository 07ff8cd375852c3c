import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { signedHeaders } from "../src/webhooks/sign.ts";
import { ROOT } from "./helpers/harness.ts";
import { independentHex, independentStandard } from "./helpers/webhooks.ts";

/** The value of the README vector table's row `name` (the backticked cell). */
function row(readme: string, name: string): string {
  const match = new RegExp(`^\\| ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\| \`([^\`]+)\` \\|$`, "m").exec(readme);
  if (!match) throw new Error(`README has no test-vector row "${name}"`);
  return match[1]!;
}

describe("README: webhooks for integrators", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Webhooks for integrators"), readme.indexOf("## Operations"));

  test("its test vector's expected signatures are what feedbase sends and what the algorithms give", () => {
    const secret = row(section, "secret");
    const id = row(section, "`webhook-id`");
    const timestamp = row(section, "`webhook-timestamp`");
    const body = row(section, "body (106 bytes)");
    expect(new TextEncoder().encode(body)).toHaveLength(106);
    const headers = signedHeaders({ secret, deliveryId: id, event: "price.updated", body, nowSeconds: Number(timestamp), version: "1.0.0" });
    expect(headers["X-Webhook-Signature"]).toBe(row(section, "expected `X-Webhook-Signature`"));
    expect(headers["webhook-signature"]).toBe(row(section, "expected `webhook-signature`"));
    const bytes = Buffer.from(body);
    expect(independentHex(secret, bytes)).toBe(headers["X-Webhook-Signature"]!);
    expect(independentStandard(secret, id, timestamp, bytes)).toBe(headers["webhook-signature"]!);
  });

  test("the files it points to exist", () => {
    for (const [, path] of section.matchAll(/\]\((docs\/[^)]+)\)/g)) expect([path, existsSync(join(ROOT, path!))]).toEqual([path, true]);
  });
});

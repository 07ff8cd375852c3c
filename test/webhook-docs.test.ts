import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { signedHeaders } from "../src/webhooks/sign.ts";
import { ROOT } from "./helpers/harness.ts";
import { independentHex, independentStandard } from "./helpers/webhooks.ts";

/** The value of the integrator guide's vector table's row `name` (the backticked cell). */
function row(readme: string, name: string): string {
  const match = new RegExp(`^\\| ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\| \`([^\`]+)\` \\|$`, "m").exec(readme);
  if (!match) throw new Error(`docs/integrators.md has no test-vector row "${name}"`);
  return match[1]!;
}

describe("docs/integrators.md: webhooks for integrators", () => {
  const guide = readFileSync(join(ROOT, "docs/integrators.md"), "utf8");
  const start = guide.indexOf("\n## Webhooks for integrators\n");
  const end = guide.indexOf("\n## ", start + 1);
  const section = guide.slice(start, end === -1 ? undefined : end);

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
    const paths = [...section.matchAll(/\]\(((?:verify\/|[\w-]+\.md)[^)#]*)/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThanOrEqual(3);
    for (const path of paths) expect([path, existsSync(join(ROOT, "docs", path))]).toEqual([path, true]);
  });
});

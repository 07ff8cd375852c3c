import { describe, expect, test } from "bun:test";
import { isoTime } from "../src/domain/time.ts";
import { generateSecret } from "../src/webhooks/secret.ts";
import { eventually, startTestServer } from "./helpers/harness.ts";
import { openTestStore } from "./helpers/store.ts";
import { gate, independentHex, startRecorder, type Recorded, type Recorder } from "./helpers/webhooks.ts";

const INGREDIENTS = ["Maize", "Wheat", "Barley", "Sorghum", "Canola meal", "Fish meal"];
/** 50 ms between attempts and 60 retries: about 3 s of refusals before a delivery would fail, far more than the phases take. */
const RETRY_SCHEDULE = Array.from({ length: 60 }, () => 0.05);
const ATTEMPT_TIMEOUT_MS = 300;

type Outcome = "refused" | "500" | "timeout" | "delivered" | "other";

/** What a `webhook attempt` log line says happened. */
function outcomeOf(line: Record<string, unknown>): Outcome {
  const error = String(line.error ?? "");
  if (line.status === 500) return "500";
  if (typeof line.status === "number" && line.status >= 200 && line.status < 300) return "delivered";
  if (error.startsWith("timed out")) return "timeout";
  if (/ConnectionRefused|ECONNREFUSED/.test(error)) return "refused";
  return "other";
}

describe("receiver outage", () => {
  test("refused connections, then 500s, then answers hanging past the attempt timeout, then back: every delivery arrives, in order", async () => {
    const t = await startTestServer({ webhooks: { retrySchedule: RETRY_SCHEDULE, timeoutMs: ATTEMPT_TIMEOUT_MS, perWebhook: 8 } });
    // Take a free port and let it go: connections to the registered address are refused until the receiver comes up on it.
    const probe = startRecorder();
    const port = Number(new URL(probe.url).port);
    await probe.stop();
    const hang = gate();
    let receiver: Recorder | null = null;
    const db = await openTestStore(t.dataPath);
    try {
      const secret = generateSecret();
      const webhookId = await db.createWebhook({ workspaceId: 1, url: `http://127.0.0.1:${port}/`, secret, events: null, now: isoTime(Date.now()) });
      const key = t.key({ write: true });
      for (const name of INGREDIENTS) expect((await t.request("POST", "/v1/ingredients", { key, body: { name, price: 100 } })).status).toBe(201);
      for (const price of [101, 102]) {
        for (const name of INGREDIENTS) expect((await t.request("PUT", `/v1/prices/${encodeURIComponent(name)}`, { key, body: { price } })).status).toBe(200);
      }
      // Per-ingredient order: only each ingredient's first event is tried while the receiver is out; the rest wait behind it.
      const heads = (await db.listDeliveries({ webhookId, limit: 100 })).filter((d) => d.event === "ingredient.added").map((d) => d.id);
      expect(heads).toHaveLength(INGREDIENTS.length);
      const outcomes = (id: string) =>
        t
          .logs()
          .filter((l) => l.msg === "webhook attempt" && l.deliveryId === id)
          .map(outcomeOf);
      const everyHeadSaw = (outcome: Outcome) => heads.every((id) => outcomes(id).includes(outcome));

      await eventually(() => everyHeadSaw("refused"));
      receiver = startRecorder(() => new Response("down for maintenance", { status: 500 }), { port });
      await eventually(() => everyHeadSaw("500"));
      // Bodies answered 2xx, in order; a hung request let go after its attempt timed out is sent again and counted once.
      const accepted: string[] = [];
      const accept = (request: Recorded) => {
        accepted.push(request.text);
        expect(request.headers["x-webhook-signature"]).toBe(independentHex(secret, request.bytes));
        return new Response(null, { status: 204 });
      };
      receiver.answer(async (request) => {
        await hang.wait;
        return accept(request);
      });
      await eventually(() => everyHeadSaw("timeout"));
      receiver.answer(accept);
      hang.open();

      const total = INGREDIENTS.length * 3;
      await eventually(async () => (await db.listDeliveries({ webhookId, status: "delivered", limit: 100 })).length === total, 15_000);
      expect((await db.listDeliveries({ webhookId, limit: 100 })).filter((d) => d.status !== "delivered")).toEqual([]);
      // Each head went through the whole outage in order before it was delivered.
      for (const id of heads) {
        const seen = outcomes(id).filter((o, i, all) => all.indexOf(o) === i);
        expect(seen).toEqual(["refused", "500", "timeout", "delivered"]);
      }
      // Every event arrived once accepted, in each ingredient's order.
      const byIngredient = new Map<string, unknown[]>();
      for (const text of new Set(accepted)) {
        const body = JSON.parse(text) as { ingredient: string; price?: number; new_price?: number };
        byIngredient.set(body.ingredient, [...(byIngredient.get(body.ingredient) ?? []), body.new_price ?? body.price]);
      }
      expect(Object.fromEntries(byIngredient)).toEqual(Object.fromEntries(INGREDIENTS.map((name) => [name, [100, 101, 102]])));
    } finally {
      hang.open();
      await db.close();
      await receiver?.stop();
      await t.stop();
    }
  }, 30_000);
});

/**
 * GET /v1/events: the outbox read back, for a receiver that was down past the retry window
 * (docs/decisions.md#webhooks). Cursor pagination on the event id, oldest first.
 */
import { eventList, eventsQuery } from "../../schemas/events.ts";
import { openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute } from "../route.ts";

export const eventRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/events",
    summary: "The workspace's events after a cursor, oldest first (catch up after an outage)",
    description:
      "Every event the workspace's webhooks were or would have been sent (all types, whatever a webhook subscribes to), with the exact webhook body as `payload`. " +
      "Page with `after` = the previous page's `next` until `hasMore` is false. Events are kept (they are the price history).",
    params: {},
    query: eventsQuery,
    response: { status: 200, description: "A page of events", schema: eventList },
    errors: [400],
    handle: (ctx, { query: { after, limit } }) =>
      ctx.cached(cacheKey("events", ctx.key.workspaceId, after, limit), async () => {
        const page = await ctx.read.eventsAfter(ctx.key.workspaceId, after, limit);
        // The payload is the stored text of the webhook body: parsing JSON that JSON.stringify wrote and
        // serializing it again gives the same bytes.
        const data = page.events.map((e) => ({ id: e.id, type: e.type, createdAt: e.createdAt, payload: JSON.parse(e.payload) as unknown }));
        return openBody(data, { count: data.length, next: page.events.at(-1)?.id ?? after, hasMore: page.hasMore });
      }),
  }),
];

/**
 * GET /v1/reports/price-history: every ingredient's price history over a window in one answer, so a
 * page of sparklines costs one request against the key's limit instead of one per row. Built from the
 * same reads as GET /v1/prices and GET /v1/prices/:name, so both backends answer it alike.
 */
import { priceHistoryReportQuery, priceHistoryReportResponse } from "../../schemas/console.ts";
import { openBody } from "../envelope.ts";
import { cacheKey } from "../read-cache.ts";
import { defineRoute, type RequestContext } from "../route.ts";

/** The default window: 180 days back from 00:00 UTC of today, so the answer stays the same (and cached) all day. */
const DEFAULT_DAYS = 180;
const DAY_MS = 86_400_000;

/** 00:00 UTC of the day `days` days before the instant `now`. @example windowStart(Date.parse("2026-11-21T12:00Z"), 180) */
export const windowStart = (now: number, days: number): string => new Date((Math.floor(now / DAY_MS) - days) * DAY_MS).toISOString();

async function histories(ctx: RequestContext, from: string, to: string | undefined) {
  const ws = ctx.key.workspaceId;
  const list = await ctx.read.listPrices(ws);
  return Promise.all(
    list.map(async ({ name }) => {
      const inWindow = (await ctx.read.priceHistory(ws, name, { from, to })).history;
      // The level the window opens at: the newest entry before it.
      const before = (await ctx.read.priceHistory(ws, name, { to: from })).history[0];
      const history = [...(before ? [before] : []), ...inWindow.reverse()];
      return { name, history };
    }),
  );
}

export const priceReportRoutes = [
  defineRoute({
    method: "GET",
    etag: true,
    path: "/v1/reports/price-history",
    summary: "Every ingredient's price history over a window",
    description:
      "Each ingredient of the workspace in the price list's order with its entries in `from`..`to`, oldest first, plus the last entry before `from` " +
      `(so a chart starts at the right level). \`from\` defaults to 00:00 UTC ${DEFAULT_DAYS} days ago; \`to\` to open.`,
    params: {},
    query: priceHistoryReportQuery,
    response: { status: 200, description: "The histories", schema: priceHistoryReportResponse },
    errors: [400],
    handle: (ctx, { query }) => {
      const from = query.from ?? windowStart(ctx.clock(), DEFAULT_DAYS);
      return ctx.cached(cacheKey("price-history-report", ctx.key.workspaceId, from, query.to), async () => {
        const data = await histories(ctx, from, query.to);
        return openBody(data, { count: data.length, from, to: query.to ?? null });
      });
    },
  }),
];

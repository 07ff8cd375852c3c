import { z } from "zod";

/** The most events one page holds. */
export const EVENTS_PAGE_MAX = 1000;

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,16}$/, { error: `${name} must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `${name} must be a whole number from ${min} to ${max}` });

/** GET /v1/events: a cursor (the last event id the caller has) and a page size. */
export const eventsQuery = z.object({
  after: wholeNumber("after", 0, Number.MAX_SAFE_INTEGER)
    .optional()
    .transform((v) => v ?? 0)
    .meta({ description: "Only events with a larger id: the `next` of the previous page, or the `X-Webhook-Event-Id` of the last delivery you applied. Default 0: from the first event kept." }),
  limit: wholeNumber("limit", 1, EVENTS_PAGE_MAX)
    .optional()
    .transform((v) => v ?? 100)
    .meta({ description: `At most this many events, 1 to ${EVENTS_PAGE_MAX} (default 100).` }),
});

const event = z.lazy(() =>
  z
    .object({
      id: z.number().int().meta({ description: "The event's id: 1, 2, 3… within the workspace, increasing, the cursor for `after`. Deliveries carry it in `X-Webhook-Event-Id`." }),
      type: z.string().meta({ description: "`price.updated`, `ingredient.added` or `formula.cost_changed`, as in `X-Webhook-Event`." }),
      createdAt: z.string().meta({ description: "When the change happened (ISO 8601 UTC with milliseconds).", format: "date-time" }),
      payload: z.record(z.string(), z.unknown()).meta({ description: "The webhook body of this event, exactly as delivered (the same JSON text)." }),
    })
    .meta({ id: "Event" }),
);

export const eventList = z.lazy(() =>
  z
    .object({
      status: z.literal("ok"),
      data: z.array(event).meta({ description: "Oldest first." }),
      count: z.number().int(),
      next: z.number().int().meta({ description: "The `after` of the next page: the last id of this page (the given `after` when the page is empty)." }),
      hasMore: z.boolean().meta({ description: "True when events after this page exist now: ask again at once." }),
      timestamp: z.string(),
    })
    .meta({ id: "EventList" }),
);

/**
 * Events: the workspace's latest events (GET /v1/events), refreshed every 5 s while the tab is visible.
 * Polls ask for what came after the last event seen, with If-None-Match: "nothing new" is a 304,
 * which the key's limit does not count. New rows are announced without moving focus.
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { instant, money, PER_T } from "../format.ts";
import type { EventItem } from "../types.ts";
import { Empty, ErrorNote, Loading, Table } from "../ui.tsx";

interface Page {
  data: EventItem[];
  next: number;
  hasMore: boolean;
}

const KEEP = 100;
const POLL_MS = 5000;

/** A line a person reads for an event's payload (the webhook body's fields, as `feedbase receive` prints them). */
function summary(e: EventItem): string {
  const p = e.payload;
  const t = (v: unknown) => (typeof v === "number" ? money(v) : typeof v === "string" ? v : "?");
  if (e.type === "price.updated") return `${t(p.ingredient)}: ${t(p.old_price)} → ${t(p.new_price)} ${PER_T}`;
  if (e.type === "ingredient.added") return `${t(p.ingredient)} (${t(p.category)}) at ${t(p.price)} ${PER_T}`;
  if (e.type === "formula.cost_changed") {
    const formulas = Array.isArray(p.formulas) ? (p.formulas as Record<string, unknown>[]) : [];
    return `${t(p.ingredient)} ${t(p.old_price)} → ${t(p.new_price)} ${PER_T} moved ${formulas.map((f) => `${t(f.id)} ${t(f.old_cost)} → ${t(f.new_cost)} per batch`).join(", ")}`;
  }
  if (typeof p.name === "string") return p.name;
  return JSON.stringify(p).slice(0, 160);
}

export function EventsPage() {
  const [events, setEvents] = useState<EventItem[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [news, setNews] = useState("");
  useEffect(() => {
    let cursor = 0;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    const ctrl = new AbortController();
    async function pull() {
      let wait = POLL_MS;
      try {
        // Page to the end (the first time there may be many), keeping the newest.
        let kept: EventItem[] = [];
        for (let pages = 0; pages < 50; pages++) {
          const page = await api<Page>(`/v1/events?after=${cursor}&limit=1000`, { signal: ctrl.signal });
          kept = [...kept, ...page.data].slice(-KEEP);
          cursor = page.next;
          if (!page.hasMore) break;
        }
        if (stop) return;
        setError(null);
        if (kept.length || first) {
          setEvents((old) => [...kept.reverse(), ...(old ?? [])].slice(0, KEEP));
          if (!first && kept.length) setNews(`${kept.length} new event${kept.length > 1 ? "s" : ""}`);
        }
        first = false;
      } catch (e) {
        if (stop) return;
        const failed = e instanceof ApiError ? e : new ApiError(String(e), 0);
        if (failed.retryAfter) wait = failed.retryAfter * 1000;
        setError(failed);
      }
      if (!stop) timer = setTimeout(tick, wait);
    }
    function tick() {
      if (document.visibilityState === "visible") void pull();
      else timer = setTimeout(tick, POLL_MS);
    }
    void pull();
    return () => {
      stop = true;
      ctrl.abort();
      clearTimeout(timer);
    };
  }, []);

  return (
    <>
      <p class="small">The newest first; refreshed every 5 seconds while this tab is open. Webhooks receive the same events.</p>
      <p class="sr-only" aria-live="polite">
        {news}
      </p>
      {error ? <ErrorNote error={error} what="Could not read the events" /> : null}
      {events === null ? (
        error ? null : <Loading what="the events" rows={5} />
      ) : events.length === 0 ? (
        <Empty>No event yet. A price change, a new ingredient or a formula whose cost moved makes one.</Empty>
      ) : (
        <Table
          caption={events.length === 1 ? "The latest event" : `The latest ${events.length} events`}
          rows={events}
          rowKey={(e) => String(e.id)}
          columns={[
            { id: "id", label: "Event", num: true, cell: (e) => String(e.id) },
            { id: "at", label: "When", cell: (e) => instant(e.createdAt) },
            { id: "type", label: "Type", cell: (e) => e.type },
            { id: "what", label: "What", cell: (e) => summary(e) },
          ]}
        />
      )}
    </>
  );
}

/**
 * Prices: every ingredient with its price per tonne, stock, the change over 30 days and a sparkline of
 * 180 days. Two requests for the whole page (the list and every history at once); filters, search and
 * sort are done here and kept in the URL.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { change, money, PER_T } from "../format.ts";
import { href, Link, navigate, place, withQuery } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { Envelope, HistoryEntry, Price, PriceHistoryReport } from "../types.ts";
import { Empty, ErrorNote, Loading, Num, sortRows, Sparkline, Table, type Column, type Sort } from "../ui.tsx";
import { historyWindow, priceAt } from "../history.ts";

interface Row extends Price {
  history: HistoryEntry[];
  change30: number | null;
}

const DAY = 86_400_000;

export function PricesPage() {
  const span = historyWindow(180);
  const prices = useResource<Envelope<Price[]>>("/v1/prices");
  const histories = useResource<PriceHistoryReport>(`/v1/reports/price-history?from=${encodeURIComponent(span.from)}`);
  const q = place.value.query;
  const category = q.get("category") ?? "";
  const stock = q.get("stock") ?? "";
  const [search, setSearch] = useState(q.get("q") ?? "");
  const sort: Sort = { by: q.get("sort") ?? "name", dir: q.get("dir") === "desc" ? "desc" : "asc" };

  // The URL follows the search box 150 ms after the last keystroke.
  useEffect(() => {
    const t = setTimeout(() => navigate(withQuery({ q: search.trim() || null }), true), 150);
    return () => clearTimeout(t);
  }, [search]);

  const ready = prices.state === "ready" && histories.state === "ready";
  useEffect(() => {
    if (ready && !performance.getEntriesByName("console-ready").length) performance.mark("console-ready");
  }, [ready]);

  const now = Date.now();
  const rows = useMemo<Row[]>(() => {
    if (prices.state !== "ready") return [];
    const byName = new Map((histories.state === "ready" ? histories.data.data : []).map((h) => [h.name, h.history]));
    return prices.data.data.map((p) => {
      const history = byName.get(p.name) ?? [];
      const then = priceAt(history, now - 30 * DAY);
      return { ...p, history, change30: then === null ? null : Math.round((p.price - then) * 100) / 100 };
    });
  }, [prices.data, histories.data]);

  if (prices.state === "loading") return <Loading what="the price list" rows={10} />;
  if (prices.state === "error") return <ErrorNote error={prices.error} retry={prices.reload} what="Could not load the price list" />;

  const categories = [...new Set(prices.data.data.map((p) => p.category))].sort();
  const needle = (q.get("q") ?? "").toLowerCase();
  const shown = rows.filter(
    (r) => (!category || r.category === category) && (!stock || (stock === "in") === r.inStock) && (!needle || r.name.toLowerCase().includes(needle)),
  );
  const from = Date.parse(span.from);
  const columns: Column<Row>[] = [
    { id: "name", label: "Ingredient", cell: (r) => <Link href={href(["ingredients", r.name])}>{r.name}</Link>, sortBy: (r) => r.name },
    { id: "category", label: "Category", wide: true, cell: (r) => r.category, sortBy: (r) => r.category },
    { id: "price", label: "Price", num: true, cell: (r) => <Num value={money(r.price)} unit={PER_T} />, sortBy: (r) => r.price },
    { id: "stock", label: "Stock", cell: (r) => <span class={r.inStock ? "badge ok" : "badge out"}>{r.inStock ? "in stock" : "out of stock"}</span>, sortBy: (r) => (r.inStock ? 1 : 0) },
    {
      id: "change30",
      label: "30 days",
      num: true,
      cell: (r) => (r.change30 === null ? <span class="small">no price 30 days ago</span> : <Num value={change(r.change30)} unit={PER_T} class={r.change30 > 0 ? "up" : r.change30 < 0 ? "down" : ""} />),
      sortBy: (r) => r.change30 ?? 0,
    },
    {
      id: "trend",
      label: "180 days",
      wide: true,
      cell: (r) =>
        histories.state === "error" ? (
          <span class="small">unavailable</span>
        ) : (
          <Sparkline
            points={r.history.map((h) => ({ t: Date.parse(h.at), v: h.price, out: !h.inStock }))}
            from={from}
            to={now}
            label={`${r.name}: ${r.history.length} price entries over 180 days`}
          />
        ),
    },
  ];
  const sorted = sortRows(shown, columns, sort);

  return (
    <>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search by name
          <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} placeholder="e.g. soybean" />
        </label>
        <label>
          Category
          <select value={category} onChange={(e) => navigate(withQuery({ category: e.currentTarget.value || null }), true)}>
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label>
          Stock
          <select value={stock} onChange={(e) => navigate(withQuery({ stock: e.currentTarget.value || null }), true)}>
            <option value="">In and out of stock</option>
            <option value="in">In stock</option>
            <option value="out">Out of stock</option>
          </select>
        </label>
      </form>
      {histories.state === "error" ? <ErrorNote error={histories.error} retry={histories.reload} what="Could not load the price histories (sparklines and 30-day changes)" /> : null}
      {histories.state === "loading" ? <p class="small" role="status">Loading price histories…</p> : null}
      <p class="small" aria-live="polite">
        {shown.length} of {rows.length} ingredients. Prices per tonne.
      </p>
      {shown.length === 0 ? (
        <Empty>No ingredient matches these filters.</Empty>
      ) : (
        <Table
          caption="Ingredient prices per tonne"
          columns={columns}
          rows={sorted}
          rowKey={(r) => r.name}
          sort={sort}
          onSort={(s) => navigate(withQuery({ sort: s.by === "name" ? null : s.by, dir: s.dir === "asc" ? null : "desc" }), true)}
        />
      )}
    </>
  );
}

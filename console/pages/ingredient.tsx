/**
 * Ingredient: its price history as a step chart over a chosen range (stock-outs shaded), its nutrient
 * values with units, the formulas that use it with their cost change per +10 of its price, and, for a
 * write key, a form to change price and stock (PUT /v1/prices/:name).
 */
import { useState } from "preact/hooks";
import { session } from "../api.ts";
import { StepChart } from "../chart.tsx";
import { day, isoDay, money, PER_T, value } from "../format.ts";
import { unitLabel, useUnits } from "../nutrients.ts";
import { href, Link, navigate, place, withQuery } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { Envelope, FormulaListItem, HistoryEntry, IngredientDetail } from "../types.ts";
import { Empty, Loaded, Num, Table } from "../ui.tsx";
import { PriceEditor } from "./price-editor.tsx";
import { UsedBy } from "./used-by.tsx";

const RANGES = [
  { id: "90", label: "90 days", days: 90 },
  { id: "180", label: "180 days", days: 180 },
  { id: "365", label: "1 year", days: 365 },
  { id: "all", label: "All", days: null },
] as const;
const DAY = 86_400_000;

interface History {
  name: string;
  price: number;
  inStock: boolean;
  history: HistoryEntry[];
}

export function IngredientPage(props: { name: string }) {
  const path = `/v1/ingredients/${encodeURIComponent(props.name)}`;
  const range = RANGES.find((r) => r.id === place.value.query.get("range")) ?? RANGES[1];
  const from = range.days === null ? null : isoDay(Date.now() - range.days * DAY);
  const [saved, setSaved] = useState(0);
  const detail = useResource<Envelope<IngredientDetail>>(path, saved);
  const history = useResource<Envelope<History>>(`/v1/prices/${encodeURIComponent(props.name)}${from ? `?from=${from}T00:00:00.000Z` : ""}`, saved);
  const formulas = useResource<Envelope<FormulaListItem[]>>("/v1/formulas");
  const units = useUnits();
  const canWrite = session.value?.write === true;

  return (
    <>
      <Loaded res={detail} what="the ingredient" rows={2}>
        {({ data: d }) => (
          <div class="facts">
            <p>
              <span class="label">Price</span> <Num value={money(d.price)} unit={PER_T} class="big" />
            </p>
            <p>
              <span class="label">Stock</span> <span class={d.inStock ? "badge ok" : "badge out"}>{d.inStock ? "in stock" : "out of stock"}</span>
            </p>
            <p>
              <span class="label">Category</span> {d.category}
            </p>
            <p>
              <span class="label">Last change</span> {day(d.updatedAt)}
            </p>
          </div>
        )}
      </Loaded>
      {canWrite && detail.state === "ready" ? <PriceEditor name={props.name} price={detail.data.data.price} inStock={detail.data.data.inStock} onSaved={() => setSaved((n) => n + 1)} /> : null}

      <section aria-labelledby="history-h">
        <h2 id="history-h">Price history</h2>
        <div class="segmented" role="group" aria-label="Range">
          {RANGES.map((r) => (
            <button key={r.id} type="button" aria-pressed={r.id === range.id} onClick={() => navigate(withQuery({ range: r.id === "180" ? null : r.id }), true)}>
              {r.label}
            </button>
          ))}
        </div>
        <Loaded res={history} what="the price history" rows={6}>
          {({ data: h }) => {
            // Oldest first for the chart; the API lists newest first.
            const entries = [...h.history].reverse();
            if (entries.length === 0) return <Empty>No price entry in this range.</Empty>;
            const points = entries.map((e) => ({ t: Date.parse(e.at), price: e.price, inStock: e.inStock }));
            return (
              <>
                <StepChart points={points} to={Date.now()} yLabel={`price ${PER_T}`} label={`Price of ${h.name} per tonne, ${entries.length} entries; shaded: out of stock`} />
                <p class="small">Shaded: out of stock. Each price holds until the next entry.</p>
                <details>
                  <summary>The {entries.length} entries as a table</summary>
                  <Table
                    caption={`Price entries of ${h.name}, newest first`}
                    rows={h.history}
                    rowKey={(e) => `${e.at}-${e.price}-${e.inStock}`}
                    columns={[
                      { id: "at", label: "From", cell: (e) => day(e.at) },
                      { id: "price", label: "Price", num: true, cell: (e) => <Num value={money(e.price)} unit={PER_T} /> },
                      { id: "stock", label: "Stock", cell: (e) => (e.inStock ? "in stock" : "out of stock") },
                      { id: "source", label: "Source", cell: (e) => e.source },
                    ]}
                  />
                </details>
              </>
            );
          }}
        </Loaded>
      </section>

      <section aria-labelledby="nutrients-h">
        <h2 id="nutrients-h">Nutrients</h2>
        <Loaded res={detail} what="the nutrients" rows={4}>
          {({ data: d }) => {
            const keys = Object.keys(d.nutrients).sort();
            if (keys.length === 0) return <Empty>No nutrient value recorded for this ingredient.</Empty>;
            return (
              <Table
                caption={`Nutrient values of ${d.name}`}
                rows={keys}
                rowKey={(k) => k}
                columns={[
                  { id: "key", label: "Nutrient", cell: (k) => (units.name(k) === k ? k : `${units.name(k)} (${k})`) },
                  { id: "value", label: "Value", num: true, cell: (k) => <Num value={value(d.nutrients[k]!)} unit={unitLabel(units, k)} /> },
                ]}
              />
            );
          }}
        </Loaded>
      </section>

      <section aria-labelledby="used-h">
        <h2 id="used-h">Formulas that use it</h2>
        <Loaded res={formulas} what="the formulas" rows={3}>
          {(list) => <UsedBy name={props.name} formulas={list} />}
        </Loaded>
      </section>
      <p>
        <Link href={href([])}>Back to all prices</Link>
      </p>
    </>
  );
}

/**
 * Formula: its composition, each nutrient against its limits as a bar with its unit, its cost per
 * tonne over time (the composition priced at each day's prices, from the one price-history call the
 * Prices page makes too), links to Optimize, Sweep, Frontier, Batch sheet and Confidence; a write key edits it here.
 */
import { useEffect, useState } from "preact/hooks";
import { session } from "../api.ts";
import { StepChart } from "../chart.tsx";
import { count, day, kg, money, PER_T, perTon, share, value } from "../format.ts";
import { historyWindow, priceAt } from "../history.ts";
import { unitLabel, useUnits, type Units } from "../nutrients.ts";
import { heading, href, Link } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { Envelope, FormulaDetail, PriceHistoryReport } from "../types.ts";
import { Empty, LimitBar, limitText, Loaded, Num, Table } from "../ui.tsx";
import { FormulaEditor } from "./formula-edit.tsx";

/** The pages that work on one formula, beside Optimize. */
const FORMULA_TOOLS = [
  { part: "sweep", label: "Sweep" },
  { part: "frontier", label: "Frontier" },
  { part: "batch-sheet", label: "Batch sheet" },
  { part: "confidence", label: "Confidence" },
] as const;


/** Each nutrient the formula has a limit on (then the others), achieved value against min and max. */
export function NutrientBars(props: { nutrients: Record<string, number>; limits: FormulaDetail["constraints"]["nutrients"]; units: Units; caption: string }) {
  const limited = new Map(props.limits.map((l) => [l.key, l]));
  const keys = [...limited.keys(), ...Object.keys(props.nutrients).filter((k) => !limited.has(k)).sort()];
  if (keys.length === 0) return <Empty>No nutrient value or limit recorded.</Empty>;
  return (
    <Table
      caption={props.caption}
      rows={keys}
      rowKey={(k) => k}
      rowClass={(k) => {
        const v = props.nutrients[k];
        const l = limited.get(k);
        if (v === undefined || !l) return "";
        return (l.min !== null && v < l.min - 1e-9) || (l.max !== null && v > l.max + 1e-9) ? "miss" : "";
      }}
      columns={[
        { id: "key", label: "Nutrient", cell: (k) => (props.units.name(k) === k ? k : `${props.units.name(k)} (${k})`) },
        { id: "value", label: "Achieved", num: true, cell: (k) => (props.nutrients[k] === undefined ? "—" : <Num value={value(props.nutrients[k]!)} unit={unitLabel(props.units, k)} />) },
        { id: "limit", label: "Limit", num: true, cell: (k) => <Num value={limitText(limited.get(k)?.min ?? null, limited.get(k)?.max ?? null, value)} unit={limited.has(k) ? unitLabel(props.units, k) : null} /> },
        {
          id: "bar",
          label: "Against the limit",
          // On a phone the figures and the limit say it; the bar would push the limit off the screen.
          wide: true,
          cell: (k) => {
            const l = limited.get(k);
            const v = props.nutrients[k] ?? null;
            return l ? <LimitBar value={v} min={l.min} max={l.max} label={`${k}: ${v === null ? "no value" : value(v)} against ${limitText(l.min, l.max, value)}`} /> : <span class="small">no limit</span>;
          },
        },
      ]}
    />
  );
}

function CostOverTime(props: { formula: FormulaDetail }) {
  const span = historyWindow(180);
  const report = useResource<PriceHistoryReport>(`/v1/reports/price-history?from=${encodeURIComponent(span.from)}`);
  return (
    <Loaded res={report} what="the price histories" rows={5}>
      {({ data }) => {
        const byName = new Map(data.map((h) => [h.name, h.history]));
        const rows = props.formula.ingredients;
        // Every instant at which one of its ingredients changed price: the cost per tonne steps there.
        const times = [...new Set(rows.flatMap((r) => (byName.get(r.name) ?? []).map((h) => Date.parse(h.at))))].filter((t) => t >= Date.parse(span.from)).sort((a, b) => a - b);
        const points = times.flatMap((t) => {
          let cost = 0;
          for (const r of rows) {
            const p = priceAt(byName.get(r.name) ?? [], t);
            if (p === null) return [];
            cost += (r.percent / 100) * p;
          }
          return [{ t, price: Math.round(cost * 100) / 100, inStock: true }];
        });
        if (points.length === 0) return <Empty>No price history for its ingredients in the last 180 days.</Empty>;
        return <StepChart points={points} to={Date.now()} yLabel={`cost ${PER_T}`} label={`Cost per tonne of ${props.formula.name} at each day's prices over 180 days`} />;
      }}
    </Loaded>
  );
}

export function FormulaPage(props: { id: string }) {
  const [saved, setSaved] = useState(0);
  const res = useResource<Envelope<FormulaDetail>>(`/v1/formulas/${encodeURIComponent(props.id)}`, saved);
  const units = useUnits();
  const [editing, setEditing] = useState(false);
  const canWrite = session.value?.write === true;
  const name = res.state === "ready" ? res.data.data.name : null;
  useEffect(() => {
    if (name !== null) heading.value = name;
  }, [name]);
  return (
    <Loaded res={res} what="the formula" rows={8}>
      {({ data: f }) => (
        <>
          <p class="lead">
            {f.species} · {f.subcategory} · batch of <Num value={count(f.batchSize)} unit="kg" /> · saved {day(f.createdAt)} at{" "}
            <Num value={money(perTon(f.totalCost, f.batchSize))} unit={PER_T} /> (<Num value={money(f.totalCost)} unit="per batch" />)
          </p>
          <nav class="actions" aria-label="This formula">
            <Link href={href(["formulas", f.id, "optimize"])} class="button">
              Optimize
            </Link>
            {FORMULA_TOOLS.map((t) => (
              <Link key={t.part} href={href(["formulas", f.id, t.part])} class="button secondary">
                {t.label}
              </Link>
            ))}
            {canWrite && !editing ? (
              <button type="button" onClick={() => setEditing(true)}>
                Edit formula
              </button>
            ) : null}
          </nav>
          {canWrite && editing ? (
            <FormulaEditor
              formula={f}
              units={units}
              onSaved={() => setSaved((n) => n + 1)}
              onClose={() => setEditing(false)}
            />
          ) : null}
          <section aria-labelledby="comp-h">
            <h2 id="comp-h">Composition</h2>
            <Table
              caption={`Composition of ${f.name} (batch of ${count(f.batchSize)} kg)`}
              rows={f.ingredients}
              rowKey={(r) => r.name}
              columns={[
                { id: "name", label: "Ingredient", cell: (r) => <Link href={href(["ingredients", r.name])}>{r.name}</Link> },
                { id: "percent", label: "Inclusion", num: true, cell: (r) => <Num value={share(r.percent)} unit="%" /> },
                { id: "amount", label: "Amount", num: true, cell: (r) => <Num value={kg(r.amount)} unit="kg" /> },
                { id: "price", label: "Saved price", num: true, wide: true, cell: (r) => <Num value={money(r.price)} unit={PER_T} /> },
                { id: "cost", label: "Cost", num: true, wide: true, cell: (r) => <Num value={money(r.cost)} unit="per batch" /> },
              ]}
            />
          </section>
          <section aria-labelledby="nut-h">
            <h2 id="nut-h">Nutrients against limits</h2>
            {units.missing ? <p class="small">Nutrient units could not be read from this server (GET /v1/nutrients).</p> : null}
            <NutrientBars nutrients={f.nutrients} limits={f.constraints.nutrients} units={units} caption={`Nutrients of ${f.name} against its limits`} />
          </section>
          {f.constraints.ingredients.length + f.constraints.ratios.length > 0 ? (
            <section aria-labelledby="lim-h">
              <h2 id="lim-h">Inclusion and ratio limits</h2>
              <ul class="limits">
                {f.constraints.ingredients.map((l) => (
                  <li key={l.name}>
                    {l.name}: {limitText(l.min, l.max, (n) => `${value(n)} %`)}
                  </li>
                ))}
                {f.constraints.ratios.map((r) => (
                  <li key={`${r.numerator}/${r.denominator}`}>
                    {r.numerator} : {r.denominator}: {limitText(r.min, r.max, value)}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section aria-labelledby="time-h">
            <h2 id="time-h">Cost per tonne over 180 days</h2>
            <CostOverTime formula={f} />
          </section>
        </>
      )}
    </Loaded>
  );
}

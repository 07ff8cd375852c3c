/**
 * Confidence: what assurance costs (GET /v1/formulas/:id/confidence): the least-cost mix's cost per
 * tonne at confidence levels from 50 % to 99 %, as a chart and a table; and, at the level chosen
 * (GET /v1/formulas/:id/optimize?confidence=P), the odds of each nutrient limit, the premium over the
 * book-value mix and what a blanket safety margin for the same odds would cost. The level and the
 * candidates live in the URL.
 */
import { XYChart } from "../chart.tsx";
import { BackToFormula, CandidatesSwitch, candidatesOf, useFormula } from "../formula-tools.tsx";
import { change, money, odds, PER_T, share, value } from "../format.ts";
import { unitLabel, useUnits, type Units } from "../nutrients.ts";
import { useEffect, useState } from "preact/hooks";
import { navigate, place, withQuery } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { Constraints, Envelope, Optimization } from "../types.ts";
import { Empty, limitText, Loaded, Num, Table } from "../ui.tsx";

interface Curve {
  id: string;
  name: string;
  points: { confidence: number; costPerTon: number | null; ingredients: { name: string; percent: number }[] | null }[];
}
interface Odds {
  mean: number;
  sd: number;
  margin: number | null;
  probabilityMin: number | null;
  probabilityMax: number | null;
}
type AtLevel = Optimization & {
  confidence: number;
  deterministicCost: number | null;
  premium: number | null;
  blanketMarginCost: number | null;
  optimized: (NonNullable<Optimization["optimized"]> & { odds: Record<string, Odds> }) | null;
};

/** The level asked in the URL as a probability (0.95 by default); the API refuses what is out of range, in its words. */
const levelOf = (q: URLSearchParams): string => q.get("confidence") ?? "0.95";
/** A probability from the URL as the percent the input shows ("0.95" → "95"); what is not a number stays as typed. */
const percentOf = (p: string): string => (Number.isFinite(Number(p)) && p.trim() !== "" ? String(Math.round(Number(p) * 10000) / 100) : p);

function OddsTable(props: { r: AtLevel; limits: Constraints["nutrients"]; units: Units }) {
  const o = props.r.optimized!.odds;
  const limits = new Map(props.limits.map((l) => [l.key, l]));
  const keys = Object.keys(o);
  const level = props.r.confidence;
  const name = (k: string) => (props.units.name(k) === k ? k : `${props.units.name(k)} (${k})`);
  const p = (v: number | null) => (v === null ? "—" : <Num value={odds(v)} unit="%" class={v < level - 1e-4 ? "up" : ""} />);
  return (
    <Table
      caption={`Odds of each nutrient limit in the mix at ${odds(level)} %`}
      rows={keys}
      rowKey={(k) => k}
      columns={[
        { id: "key", label: "Nutrient", cell: name },
        // On a phone the limit and the odds say it; mean and spread would push the odds off the screen.
        { id: "mean", label: "Mean", num: true, wide: true, cell: (k) => <Num value={value(o[k]!.mean)} unit={unitLabel(props.units, k)} /> },
        { id: "sd", label: "Spread (sd)", num: true, wide: true, cell: (k) => <Num value={value(o[k]!.sd)} unit={unitLabel(props.units, k)} /> },
        { id: "limit", label: "Limit", num: true, cell: (k) => <Num value={limitText(limits.get(k)?.min ?? null, limits.get(k)?.max ?? null, value)} unit={unitLabel(props.units, k)} /> },
        { id: "min", label: "Meets the min", num: true, cell: (k) => p(o[k]!.probabilityMin) },
        { id: "max", label: "Meets the max", num: true, cell: (k) => p(o[k]!.probabilityMax) },
      ]}
    />
  );
}

function AtTheLevel(props: { r: AtLevel; limits: Constraints["nutrients"]; units: Units }) {
  const { r } = props;
  if (r.status !== "optimal" || r.optimized === null)
    return <Empty>No mix meets every nutrient limit with a probability of {odds(r.confidence)} %. Choose a lower level, or widen the limits.</Empty>;
  return (
    <>
      <div class="facts" data-status="optimal">
        <p>
          <span class="label">Cost at {odds(r.confidence)} %</span> <Num value={money(r.optimized.costPerTon)} unit={PER_T} class="big" />
        </p>
        <p>
          <span class="label">On book values (50 %)</span> {r.deterministicCost === null ? "no mix" : <Num value={money(r.deterministicCost)} unit={PER_T} class="big" />}
        </p>
        <p>
          <span class="label">Premium for the assurance</span> {r.premium === null ? "—" : <Num value={change(r.premium)} unit={PER_T} class="big" />}
        </p>
        <p>
          <span class="label">A blanket margin for the same odds</span> {r.blanketMarginCost === null ? "no mix" : <Num value={money(r.blanketMarginCost)} unit={PER_T} class="big" />}
        </p>
      </div>
      {Object.values(r.optimized.odds).every((o) => o.sd === 0) ? (
        <p class="note" data-no-spread>
          No lab analyses give these ingredients' values a spread yet (three analyses of a nutrient or more in the last 365 days), so every level costs what the book values do. Record
          analyses of the main ingredients and the odds become real.
        </p>
      ) : null}
      <p class="small">
        Each ingredient's values vary as its lab analyses of the last 365 days do (three analyses of a nutrient or more; fewer count as no spread). The blanket margin raises every
        minimum and lowers every maximum by the same number of standard deviations, as safety margins set by hand do.
      </p>
      <OddsTable r={r} limits={props.limits} units={props.units} />
      <details>
        <summary>The mix at {odds(r.confidence)} %</summary>
        <Table
          caption={`Mix at ${odds(r.confidence)} %`}
          rows={r.optimized.ingredients}
          rowKey={(i) => i.name}
          columns={[
            { id: "name", label: "Ingredient", cell: (i) => i.name },
            { id: "percent", label: "Inclusion", num: true, cell: (i) => <Num value={share(i.percent)} unit="%" /> },
            { id: "price", label: "Price", num: true, cell: (i) => <Num value={money(i.price)} unit={PER_T} /> },
          ]}
        />
      </details>
    </>
  );
}

function CurveView(props: { curve: Curve }) {
  const pts = props.curve.points;
  const reached = pts.filter((p) => p.costPerTon !== null);
  if (reached.length === 0) return <Empty>No mix meets every nutrient limit at any of these levels.</Empty>;
  return (
    <>
      <XYChart
        xs={pts.map((p) => p.confidence * 100)}
        lines={[{ label: `least cost (${PER_T})`, values: pts.map((p) => p.costPerTon) }]}
        xLabel="confidence every limit is met, %"
        yLabels={[`cost ${PER_T}`]}
        label={`Cost per tonne of the least-cost mix at confidence levels from ${odds(pts[0]!.confidence)} % to ${odds(pts.at(-1)!.confidence)} %`}
      />
      <details>
        <summary>The {pts.length} levels as a table</summary>
        <Table
          caption="Cost of the least-cost mix at each confidence level"
          rows={pts}
          rowKey={(p) => String(p.confidence)}
          columns={[
            { id: "level", label: "Confidence", num: true, cell: (p) => <Num value={odds(p.confidence)} unit="%" /> },
            { id: "cost", label: "Cost", num: true, cell: (p) => (p.costPerTon === null ? "no mix" : <Num value={money(p.costPerTon)} unit={PER_T} />) },
            {
              id: "mix",
              label: "Largest shares",
              wide: true,
              cell: (p) => (p.ingredients ?? []).slice(0, 3).map((i) => `${i.name} ${share(i.percent)} %`).join(", "),
            },
          ]}
        />
      </details>
    </>
  );
}

export function ConfidencePage(props: { id: string }) {
  const { formula } = useFormula(props.id, (name) => `Confidence · ${name}`);
  const units = useUnits();
  const q = place.value.query;
  const candidates = candidatesOf();
  const level = levelOf(q);
  const base = `/v1/formulas/${encodeURIComponent(props.id)}`;
  const curve = useResource<Envelope<Curve>>(`${base}/confidence?candidates=${candidates}`);
  const at = useResource<Envelope<AtLevel>>(`${base}/optimize?candidates=${candidates}&confidence=${encodeURIComponent(level)}`);
  // The input is in percent, as people say it; the URL and the API take a probability.
  const [text, setText] = useState(() => percentOf(level));
  useEffect(() => setText(percentOf(level)), [level]);
  return (
    <>
      <CandidatesSwitch />
      <h2>What each point of assurance costs</h2>
      <Loaded res={curve} what="the cost at each confidence level (one optimization per level)" rows={8}>
        {({ data }) => <CurveView curve={data} />}
      </Loaded>
      <h2>The odds at one level</h2>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          const p = Number(text);
          // In hundredths of a percent, so 99.9 is sent as 0.999 (not 0.9990000000000001).
          navigate(withQuery({ confidence: Number.isFinite(p) && text.trim() !== "" ? String(Math.round(p * 100) / 10000) : text }), true);
        }}
      >
        <label>
          <span>
            Confidence <span class="unit">(%, 50 to 99.9)</span>
          </span>
          <input inputMode="decimal" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit">Show the odds</button>
      </form>
      <Loaded res={formula} what="the formula's limits" rows={2}>
        {({ data: f }) => (
          <Loaded res={at} what="the optimum at this level" rows={8}>
            {({ data: r }) => <AtTheLevel r={r} limits={f.constraints.nutrients} units={units} />}
          </Loaded>
        )}
      </Loaded>
      <BackToFormula id={props.id} />
    </>
  );
}

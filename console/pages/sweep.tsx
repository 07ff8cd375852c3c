/**
 * Sweep: how the optimum moves with one ingredient's price (GET /v1/formulas/:id/sweep): its percent in
 * the optimum and the cost per tonne at evenly spaced prices, and the exact prices where the percent
 * changes. Ingredient, range and points live in the URL.
 */
import { XYChart } from "../chart.tsx";
import { BackToFormula, useFormula } from "../formula-tools.tsx";
import { money, PER_T, share } from "../format.ts";
import { place, useQueryDraft } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { Envelope, Price } from "../types.ts";
import { Empty, Loaded, Num, Table } from "../ui.tsx";

interface Sweep {
  ingredient: string;
  status: "optimal" | "infeasible";
  points: { price: number; percent: number | null; costPerTon: number | null }[];
  breakpoints: { price: number; percentBelow: number; percentAbove: number }[];
}

export function SweepPage(props: { id: string }) {
  const { f } = useFormula(props.id, (name) => `Sweep · ${name}`);
  const prices = useResource<Envelope<Price[]>>("/v1/prices");
  const q = place.value.query;
  const ingredient = q.get("ingredient") ?? [...(f?.ingredients ?? [])].sort((a, b) => b.percent - a.percent)[1]?.name ?? f?.ingredients[0]?.name ?? "";
  const today = prices.state === "ready" ? prices.data.data.find((p) => p.name === ingredient)?.price : undefined;
  const values = {
    ingredient,
    from: q.get("from") ?? (today !== undefined ? String(Math.round(today * 0.5)) : ""),
    to: q.get("to") ?? (today !== undefined ? String(Math.round(today * 1.5)) : ""),
    points: q.get("points") ?? "51",
  };
  const { draft, setDraft, submit } = useQueryDraft(values, [f?.id, today, q.toString()]);
  const ready = values.ingredient !== "" && values.from !== "" && values.to !== "";
  const sweep = useResource<Envelope<Sweep>>(ready ? `/v1/formulas/${encodeURIComponent(props.id)}/sweep?${new URLSearchParams(values).toString()}` : null);

  return (
    <>
      <form class="filters" onSubmit={submit}>
        <label>
          Ingredient
          <select value={draft.ingredient} onChange={(e) => setDraft({ ...draft, ingredient: e.currentTarget.value, from: "", to: "" })}>
            {(f?.ingredients ?? []).map((i) => (
              <option key={i.name} value={i.name}>
                {i.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>
            From <span class="unit">{PER_T}</span>
          </span>
          <input inputMode="decimal" value={draft.from} onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })} />
        </label>
        <label>
          <span>
            To <span class="unit">{PER_T}</span>
          </span>
          <input inputMode="decimal" value={draft.to} onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
        </label>
        <label>
          Points
          <input inputMode="numeric" value={draft.points} onInput={(e) => setDraft({ ...draft, points: e.currentTarget.value })} />
        </label>
        <button type="submit">Sweep</button>
      </form>
      {today !== undefined ? (
        <p class="small">
          {ingredient} costs <Num value={money(today)} unit={PER_T} /> today.
        </p>
      ) : null}
      <Loaded res={sweep} what="the sweep (one optimization per price)" rows={8}>
        {({ data: s }) =>
          s.status === "infeasible" ? (
            <Empty>No mix meets every limit at any of these prices.</Empty>
          ) : (
            <>
              <XYChart
                xs={s.points.map((p) => p.price)}
                lines={[
                  { label: `${s.ingredient} in the optimum (%)`, values: s.points.map((p) => p.percent), stepped: true },
                  { label: `cost of the optimum (${PER_T})`, values: s.points.map((p) => p.costPerTon), axis: 1 },
                ]}
                xLabel={`price of ${s.ingredient} ${PER_T}`}
                yLabels={["% of the mix", `cost ${PER_T}`]}
                label={`${s.ingredient}'s share of the optimum and the optimum's cost per tonne as its price goes from ${money(s.points[0]!.price)} to ${money(s.points.at(-1)!.price)} per tonne`}
              />
              <h2>Where the optimum changes</h2>
              {s.breakpoints.length === 0 ? (
                <Empty>Its share of the optimum stays the same over this range.</Empty>
              ) : (
                <Table
                  caption={`Prices of ${s.ingredient} at which its share of the optimum changes`}
                  rows={s.breakpoints}
                  rowKey={(b) => String(b.price)}
                  columns={[
                    { id: "price", label: "At", num: true, cell: (b) => <Num value={money(b.price)} unit={PER_T} /> },
                    { id: "below", label: "Just below", num: true, cell: (b) => <Num value={share(b.percentBelow)} unit="%" /> },
                    { id: "above", label: "From there", num: true, cell: (b) => <Num value={share(b.percentAbove)} unit="%" /> },
                  ]}
                />
              )}
              <details>
                <summary>The {s.points.length} points as a table</summary>
                <Table
                  caption={`Sweep of ${s.ingredient}: share and cost at each price`}
                  rows={s.points}
                  rowKey={(p) => String(p.price)}
                  columns={[
                    { id: "price", label: "Price", num: true, cell: (p) => <Num value={money(p.price)} unit={PER_T} /> },
                    { id: "percent", label: "In the optimum", num: true, cell: (p) => (p.percent === null ? "—" : <Num value={share(p.percent)} unit="%" />) },
                    { id: "cost", label: "Cost", num: true, cell: (p) => (p.costPerTon === null ? "—" : <Num value={money(p.costPerTon)} unit={PER_T} />) },
                  ]}
                />
              </details>
            </>
          )
        }
      </Loaded>
      <BackToFormula id={props.id} />
    </>
  );
}

/**
 * Frontier: the cost of a lower footprint (GET /v1/formulas/:id/frontier): the cheapest mix at each
 * footprint from the least-cost mix to the least-CO2e mix, and what each tonne of CO2e avoided costs.
 */
import { XYChart } from "../chart.tsx";
import { co2e, money, PER_T, share } from "../format.ts";
import { BackToFormula, CandidatesSwitch, candidatesOf, useFormula } from "../formula-tools.tsx";
import { useResource } from "../resource.ts";
import type { Envelope } from "../types.ts";
import { Empty, Loaded, Num, Table } from "../ui.tsx";

interface Frontier {
  status: "optimal" | "infeasible";
  points: { co2ePerTon: number; costPerTon: number; ingredients: { name: string; percent: number }[] }[];
  abatement: { from: number; to: number; costPerTonneCo2e: number | null }[];
  heldOut: string[];
}

const CO2 = "kg CO2e/t";

export function FrontierPage(props: { id: string }) {
  useFormula(props.id, (name) => `Frontier · ${name}`);
  const candidates = candidatesOf();
  const res = useResource<Envelope<Frontier>>(`/v1/formulas/${encodeURIComponent(props.id)}/frontier?candidates=${candidates}`);
  return (
    <>
      <CandidatesSwitch />
      <Loaded res={res} what="the frontier (one optimization per point)" rows={8}>
        {({ data: fr }) => {
          if (fr.status === "infeasible" || fr.points.length === 0)
            return (
              <div class="note empty" data-status={fr.status}>
                <p>No mix of ingredients with a known footprint meets every limit, so there is no frontier to draw.</p>
                {fr.heldOut.length ? (
                  <p>
                    No footprint (kg CO2e per kg) is recorded for {fr.heldOut.length} of its candidates: {fr.heldOut.join(", ")}. An administrator sets them with the
                    ingredient's <code>co2e</code> (PUT /v1/ingredients/NAME or the import's co2e column).
                  </p>
                ) : null}
              </div>
            );
          // Ascending footprint for the chart: the API goes from the least-cost (highest) to the least-CO2e.
          const byFootprint = [...fr.points].sort((a, b) => a.co2ePerTon - b.co2ePerTon);
          return (
            <>
              {fr.heldOut.length ? <p class="note">Held out (no footprint recorded): {fr.heldOut.join(", ")}.</p> : null}
              <XYChart
                xs={byFootprint.map((p) => p.co2ePerTon)}
                lines={[{ label: `cheapest mix (${PER_T})`, values: byFootprint.map((p) => p.costPerTon) }]}
                xLabel={`footprint ${CO2}`}
                yLabels={[`cost ${PER_T}`]}
                label={`Cost per tonne of the cheapest mix at each footprint, from ${co2e(byFootprint[0]!.co2ePerTon)} to ${co2e(byFootprint.at(-1)!.co2ePerTon)} kg CO2e per tonne`}
              />
              <Table
                caption="Points of the frontier, from the least-cost mix to the least-CO2e mix"
                rows={fr.points}
                rowKey={(p) => String(p.co2ePerTon)}
                columns={[
                  { id: "co2e", label: "Footprint", num: true, cell: (p) => <Num value={co2e(p.co2ePerTon)} unit={CO2} /> },
                  { id: "cost", label: "Cost", num: true, cell: (p) => <Num value={money(p.costPerTon)} unit={PER_T} /> },
                  {
                    id: "mix",
                    label: "Largest shares",
                    wide: true,
                    cell: (p) =>
                      [...p.ingredients]
                        .sort((a, b) => b.percent - a.percent)
                        .slice(0, 3)
                        .map((i) => `${i.name} ${share(i.percent)} %`)
                        .join(", "),
                  },
                ]}
              />
              <h2>Cost of each tonne of CO2e avoided</h2>
              {fr.abatement.length === 0 ? (
                <Empty>The least-cost mix is already the least-CO2e mix.</Empty>
              ) : (
                <Table
                  caption="Abatement cost between consecutive points"
                  rows={fr.abatement}
                  rowKey={(a) => `${a.from}-${a.to}`}
                  columns={[
                    { id: "from", label: "From", num: true, cell: (a) => <Num value={co2e(a.from)} unit={CO2} /> },
                    { id: "to", label: "To", num: true, cell: (a) => <Num value={co2e(a.to)} unit={CO2} /> },
                    { id: "cost", label: "Per tonne CO2e avoided", num: true, cell: (a) => (a.costPerTonneCo2e === null ? "—" : <Num value={money(a.costPerTonneCo2e)} unit="per t CO2e" />) },
                  ]}
                />
              )}
            </>
          );
        }}
      </Loaded>
      <BackToFormula id={props.id} />
    </>
  );
}

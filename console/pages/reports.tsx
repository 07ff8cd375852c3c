/**
 * Reports: the savings worklist (every formula optimized at today's prices, biggest saving per tonne
 * first) and the cost changes since a date, each downloadable as CSV with the figures shown.
 */
import { useState } from "preact/hooks";
import { downloadCsv } from "../csv.ts";
import { change, isoDay, money, PER_T, pct, perTon } from "../format.ts";
import { CandidatesSwitch, candidatesOf } from "../formula-tools.tsx";
import { href, Link, navigate, place, withQuery } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { CostChange, Envelope, SavingsRow } from "../types.ts";
import { Empty, Loaded, Num, Table } from "../ui.tsx";


/** A report's rows as a CSV file, made when the button is pressed. */
function CsvButton(props: { label: string; file: string; header: readonly string[]; rows: () => (string | number | boolean | null)[][] }) {
  return (
    <p>
      <button type="button" class="secondary" onClick={() => downloadCsv(props.file, props.header, props.rows())}>
        {props.label}
      </button>
    </p>
  );
}

function Savings() {
  const candidates = candidatesOf();
  const res = useResource<Envelope<SavingsRow[]>>(`/v1/reports/savings${candidates === "all" ? "?candidates=all" : ""}`);
  return (
    <section aria-labelledby="savings-h">
      <h2 id="savings-h">Savings worklist</h2>
      <CandidatesSwitch formulaLabel="Each formula's ingredients" />
      <Loaded res={res} what="the savings worklist" rows={8}>
        {({ data }) => (
          <>
            <CsvButton
              label="Download the worklist as CSV"
              file={`savings-${isoDay(Date.now())}.csv`}
              header={["id", "name", "species", "subcategory", "status", "cost_per_batch", "optimized_cost_per_batch", "saving_per_ton", "saving_per_batch", "saving_percent", "saved_meets_limits"]}
              rows={() => data.map((r) => [r.id, r.name, r.species, r.subcategory, r.status, r.cost, r.optimizedCost, r.saving?.perTon ?? null, r.saving?.perBatch ?? null, r.saving?.percent ?? null, r.savedMeetsLimits ?? null])}
            />
            {data.length === 0 ? (
              <Empty>No formula to optimize yet.</Empty>
            ) : (
              <Table
                caption="Formulas by saving per tonne at today's prices"
                rows={data}
                rowKey={(r) => r.id}
                rowClass={(r) => (r.savedMeetsLimits === false ? "miss" : "")}
                columns={[
                  { id: "name", label: "Formula", cell: (r) => <Link href={href(["formulas", r.id, "optimize"], candidates === "all" ? { candidates: "all" } : undefined)}>{r.name}</Link> },
                  { id: "species", label: "Species", wide: true, cell: (r) => r.species },
                  { id: "saving", label: "Saving", num: true, cell: (r) => (r.saving ? <Num value={money(r.saving.perTon)} unit={PER_T} /> : <span class="small">{r.status}</span>) },
                  { id: "percent", label: "Saving %", num: true, cell: (r) => (r.saving ? pct(r.saving.percent).replace("+", "") : "—") },
                  { id: "batch", label: "Per batch", num: true, wide: true, cell: (r) => (r.saving ? <Num value={money(r.saving.perBatch)} unit="per batch" /> : "—") },
                  { id: "meets", label: "Saved mix", wide: true, cell: (r) => (r.savedMeetsLimits === false ? `misses: ${(r.violations ?? []).join("; ")}` : "meets its limits") },
                ]}
              />
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

function CostChanges() {
  const since = place.value.query.get("since") ?? "";
  const [draft, setDraft] = useState(since);
  const res = useResource<Envelope<CostChange[]>>(`/v1/reports/cost-changes${since ? `?since=${since}T00:00:00.000Z` : ""}`);
  return (
    <section aria-labelledby="changes-h">
      <h2 id="changes-h">Cost changes</h2>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(withQuery({ since: draft || null }), true);
        }}
      >
        <label>
          Since (UTC day; empty: since each formula was saved)
          <input type="date" value={draft} max={isoDay(Date.now())} onInput={(e) => setDraft(e.currentTarget.value)} />
        </label>
        <button type="submit">Show</button>
      </form>
      <Loaded res={res} what="the cost changes" rows={6}>
        {({ data }) => (
          <>
            <CsvButton
              label="Download the cost changes as CSV"
              file={`cost-changes-${since || "since-saved"}.csv`}
              header={["id", "name", "species", "subcategory", "batch_size_kg", "cost_then_per_batch", "cost_now_per_batch", "change_per_batch", "change_percent", "change_per_ton"]}
              rows={() => data.map((r) => [r.id, r.name, r.species, r.subcategory, r.batchSize, r.costThen, r.costNow, r.change, r.changePercent, r.changePerTon ?? perTon(r.change, r.batchSize)])}
            />
            {data.length === 0 ? (
              <Empty>No formula's cost moved {since ? `since ${since}` : "since it was saved"}.</Empty>
            ) : (
              <Table
                caption={`Formulas whose cost moved ${since ? `since ${since}` : "since saved"}, per tonne`}
                rows={data}
                rowKey={(r) => r.id}
                columns={[
                  { id: "name", label: "Formula", cell: (r) => <Link href={href(["formulas", r.id])}>{r.name}</Link> },
                  { id: "now", label: "Cost now", num: true, cell: (r) => <Num value={money(r.costPerTon ?? perTon(r.costNow, r.batchSize))} unit={PER_T} /> },
                  {
                    id: "change",
                    label: "Change",
                    num: true,
                    cell: (r) => {
                      const c = r.changePerTon ?? perTon(r.change, r.batchSize);
                      return <Num value={change(c)} unit={PER_T} class={c > 0 ? "up" : "down"} />;
                    },
                  },
                  { id: "pct", label: "Change %", num: true, cell: (r) => pct(r.changePercent) },
                  { id: "drivers", label: "Moved by", wide: true, cell: (r) => r.drivers.slice(0, 3).map((d) => `${d.name} ${money(d.priceThen)} → ${money(d.priceNow)} ${PER_T}`).join("; ") },
                ]}
              />
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

export function ReportsPage() {
  return (
    <>
      <Savings />
      <CostChanges />
    </>
  );
}

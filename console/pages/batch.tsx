/**
 * Batch sheet: the amounts the mixer's scales can weigh (GET /v1/formulas/:id/batch), every limit kept,
 * in order of addition with a tick column, printable on one clean A4 page (the print stylesheet hides
 * the console around it). Size and scale steps live in the URL, so a sheet can be bookmarked.
 */
import { day, kg, kgChange, money, PER_T, share, value } from "../format.ts";
import { BackToFormula, useFormula } from "../formula-tools.tsx";
import { place, useQueryDraft } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { Envelope } from "../types.ts";
import { limitUnit, useUnits } from "../nutrients.ts";
import { Empty, Loaded, Num, Table } from "../ui.tsx";

interface Sheet {
  id: string;
  name: string;
  size: number;
  status: "optimal" | "infeasible";
  cost: number;
  exactCost: number;
  roundingCost: number;
  lines: { name: string; scale: "macro" | "micro"; step: number; kg: number; percent: number; exactKg: number; deviationKg: number }[];
  conflicts: { kind: string; key?: string; name?: string; numerator?: string; denominator?: string; bound: string; limit: number; bestAchievable: number | null }[];
}

const FIELDS = [
  { id: "size", label: "Batch size", hint: "kg" },
  { id: "resolution", label: "Scale step", hint: "kg" },
  { id: "microResolution", label: "Micro scale step", hint: "kg, optional" },
  { id: "microBelow", label: "Micro scale for amounts below", hint: "kg, optional" },
] as const;

export function BatchPage(props: { id: string }) {
  const { formula, f } = useFormula(props.id, (name) => `Batch sheet · ${name}`);
  const units = useUnits();
  const unit = (c: Sheet["conflicts"][number]) => (limitUnit(units, c) ? ` ${limitUnit(units, c)}` : "");
  const q = place.value.query;
  const values = {
    size: q.get("size") ?? (f ? String(f.batchSize) : ""),
    resolution: q.get("resolution") ?? "1",
    microResolution: q.get("microResolution") ?? "",
    microBelow: q.get("microBelow") ?? "",
  };
  const { draft, setDraft, submit } = useQueryDraft(values, [f?.id, q.toString()]);
  const query = new URLSearchParams(Object.entries(values).filter(([, v]) => v !== "")).toString();
  const sheet = useResource<Envelope<Sheet>>(f && values.size ? `/v1/formulas/${encodeURIComponent(props.id)}/batch?${query}` : null);

  return (
    <>
      <form class="filters no-print" onSubmit={submit}>
        {FIELDS.map((field) => (
          <label key={field.id}>
            <span>
              {field.label} <span class="unit">({field.hint})</span>
            </span>
            <input inputMode="decimal" value={draft[field.id]} onInput={(e) => setDraft({ ...draft, [field.id]: e.currentTarget.value })} />
          </label>
        ))}
        <button type="submit">Make the sheet</button>
        <button type="button" class="secondary" onClick={() => print()}>
          Print
        </button>
      </form>
      <Loaded res={formula} what="the formula" rows={2}>
        {() => (
            <Loaded res={sheet} what="the batch sheet (the cheapest whole steps that keep every limit)" rows={8}>
              {({ data: s }) => (
                <article class="sheet">
                  <p class="lead print-only">
                    {s.name} ({s.id}) · {day(new Date().toISOString())}
                  </p>
                  <div class="facts">
                    <p>
                      <span class="label">Batch</span> <Num value={kg(s.size)} unit="kg" class="big" />
                    </p>
                    <p>
                      <span class="label">Cost of these amounts</span> <Num value={money(s.cost)} unit="per batch" class="big" />
                    </p>
                    <p>
                      <span class="label">Rounding costs</span> <Num value={money(s.roundingCost)} unit="per batch" /> <span class="small">({money((s.roundingCost / s.size) * 1000)} {PER_T})</span>
                    </p>
                  </div>
                  {s.status === "infeasible" ? (
                    <div class="note error" role="alert">
                      <p>No amounts in whole steps of these scales keep every limit. The nearest amounts are shown; they miss:</p>
                      <ul>
                        {s.conflicts.map((c, i) => (
                          <li key={i}>
                            {c.key ?? c.name ?? `${c.numerator} : ${c.denominator}`} {c.bound} {value(c.limit)}
                            {unit(c)}: {c.bestAchievable === null ? "—" : `${value(c.bestAchievable)}${unit(c)}`}
                          </li>
                        ))}
                      </ul>
                    </div>
                  ) : null}
                  {s.lines.length === 0 ? (
                    <Empty>The formula has no ingredient to weigh.</Empty>
                  ) : (
                    <Table
                      caption={`Batch sheet of ${s.name}: ${kg(s.size)} kg, in order of addition`}
                      rows={s.lines}
                      rowKey={(l) => l.name}
                      columns={[
                        { id: "tick", label: "Done", cell: () => <span class="tick" aria-hidden="true" /> },
                        { id: "name", label: "Ingredient", cell: (l) => l.name },
                        { id: "scale", label: "Scale", cell: (l) => `${l.scale} (${kg(l.step)} kg)` },
                        { id: "kg", label: "Weigh", num: true, cell: (l) => <Num value={kg(l.kg)} unit="kg" class="strong" /> },
                        { id: "percent", label: "Share", num: true, cell: (l) => <Num value={share(l.percent)} unit="%" /> },
                        { id: "deviation", label: "vs exact", num: true, wide: true, cell: (l) => <Num value={kgChange(l.deviationKg)} unit="kg" /> },
                      ]}
                    />
                  )}
                  <p class="small">
                    Each amount is a whole number of its scale's steps; together they make the batch exactly and keep every limit of the formula.
                  </p>
                </article>
              )}
            </Loaded>
        )}
      </Loaded>
      <BackToFormula id={props.id} class="no-print" />
    </>
  );
}

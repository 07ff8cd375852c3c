/**
 * One production plan (GET /v1/plans/:id) optimized (GET /v1/plans/:id/optimize): every formula's mix
 * chosen together under the stock they share. Per line the tonnage and the cost per tonne together and
 * alone; the plan's cost and what sharing costs; each ingredient's use against its supply, with what
 * binds and what one more tonne of it is worth; each formula's mix. Two requests; the solve shows its
 * progress and an infeasible plan lists the single changes that would make it feasible.
 */
import { useEffect } from "preact/hooks";
import { change, day, money, PER_T, share, T, tonnes, value } from "../format.ts";
import { heading, href, Link } from "../router.tsx";
import { useResource } from "../resource.ts";
import type { Envelope, Plan, PlanResult, PlanUsage } from "../types.ts";
import { limitUnit, useUnits, type Units } from "../nutrients.ts";
import { CandidatesSwitch, candidatesOf } from "../formula-tools.tsx";
import { Empty, LimitBar, limitText, Loaded, Num, Table } from "../ui.tsx";

type Line = PlanResult["formulas"][number];

/** What a binding supply bound means to the plan, as a sentence. */
function bindingText(u: PlanUsage): string {
  const sp = u.shadowPrice === null ? null : money(Math.abs(u.shadowPrice));
  if (u.bound === "max")
    return `all ${tonnes(u.maxTons!)} ${T} available are used${sp === null ? "" : `: one more tonne would lower the plan's cost by ${sp}, so it is worth up to ${sp} ${PER_T} above today's price`}.`;
  return `the contract's minimum of ${tonnes(u.minTons!)} ${T} is all the plan takes${sp === null ? "" : `: each tonne it must take costs the plan ${sp} beyond its price`}.`;
}

function Result(props: { r: PlanResult; plan: Plan; units: Units }) {
  const { r, units } = props;
  if (r.status === "infeasible")
    return (
      <div class="note error" role="alert" data-status="infeasible">
        <p>No mixes meet every formula's limits within this supply. Each of these changes alone would make the plan feasible:</p>
        <ul>
          {r.conflicts.map((c, i) => {
            const what = c.kind === "supply" ? `${c.name} supply ${c.bound}` : `${c.formula ?? ""}: ${c.key ?? c.name ?? `${c.numerator} : ${c.denominator}`} ${c.bound}`;
            const unit = limitUnit(units, c) ? ` ${limitUnit(units, c)}` : "";
            const show = c.kind === "supply" ? tonnes : value;
            return (
              <li key={i}>
                {what} from {show(c.limit)}
                {unit} to {c.bestAchievable === null ? "—" : `${show(c.bestAchievable)}${unit}`}
              </li>
            );
          })}
        </ul>
      </div>
    );
  const binding = r.usage.filter((u) => u.bound !== null);
  const supplied = new Set(props.plan.supply.map((s) => s.name));
  // Supplied ingredients first (the rows a buyer reads), then the others by tonnes used.
  const usage = [...r.usage].sort((a, b) => Number(supplied.has(b.name)) - Number(supplied.has(a.name)) || b.tons - a.tons);
  return (
    <>
      <div class="facts" data-status="optimal">
        <p>
          <span class="label">Plan cost, formulas together</span> <Num value={money(r.cost!)} unit={`for ${tonnes(r.totalTons)} ${T}`} class="big" />
        </p>
        <p>
          <span class="label">On average</span> <Num value={money(r.cost! / r.totalTons)} unit={PER_T} class="big" />
        </p>
        <p>
          <span class="label">Each formula optimized alone</span> <Num value={money(r.independentCost!)} unit="in all" />
        </p>
        <p>
          <span class="label">What the shared supply costs</span> <Num value={change(r.sharingCost!)} unit="in all" class={r.sharingCost! > 0 ? "big up" : "big"} />
        </p>
      </div>
      <h2>Lines</h2>
      <Table
        caption={`Lines of ${r.name}: tonnage and cost per tonne, optimized together and alone`}
        rows={r.formulas}
        rowKey={(l) => l.id}
        columns={[
          { id: "name", label: "Formula", cell: (l) => <Link href={href(["formulas", l.id])}>{l.name}</Link> },
          { id: "tons", label: "Tonnage", num: true, cell: (l) => <Num value={tonnes(l.tons)} unit={T} /> },
          { id: "cost", label: "Together", num: true, cell: (l) => <Num value={money(l.costPerTon!)} unit={PER_T} /> },
          { id: "alone", label: "Alone", num: true, wide: true, cell: (l) => <Num value={money(l.independentCostPerTon!)} unit={PER_T} /> },
          { id: "sharing", label: "Sharing adds", num: true, wide: true, cell: (l) => <Num value={change(l.costPerTon! - l.independentCostPerTon!)} unit={PER_T} /> },
          { id: "total", label: "Line cost", num: true, cell: (l) => <Num value={money(l.costPerTon! * l.tons)} unit="in all" /> },
        ]}
      />
      <h2>What binds</h2>
      {binding.length === 0 ? (
        <Empty>No supply bound binds: every formula is at its own optimum, and sharing costs nothing.</Empty>
      ) : (
        <ul class="binding">
          {binding.map((u) => (
            <li key={u.name}>
              <strong>{u.name}</strong>: {bindingText(u)}
            </li>
          ))}
        </ul>
      )}
      <h2>Shared stock</h2>
      <Table
        caption="Use of each ingredient against its supply, in tonnes over the plan, and what one more tonne of a bound that binds changes the plan's cost by"
        rows={usage}
        rowKey={(u) => u.name}
        rowClass={(u) => (u.bound ? "binds" : "")}
        columns={[
          { id: "name", label: "Ingredient", cell: (u) => <Link href={href(["ingredients", u.name])}>{u.name}</Link> },
          { id: "used", label: "Used", num: true, cell: (u) => <Num value={tonnes(u.tons)} unit={T} /> },
          { id: "supply", label: "Supply", num: true, cell: (u) => (supplied.has(u.name) ? <Num value={limitText(u.minTons, u.maxTons, tonnes)} unit={T} /> : <span class="small">unlimited</span>) },
          {
            id: "bar",
            label: "Against the supply",
            wide: true,
            cell: (u) => (supplied.has(u.name) ? <LimitBar value={u.tons} min={u.minTons} max={u.maxTons} label={`${u.name}: ${tonnes(u.tons)} t used against ${limitText(u.minTons, u.maxTons, tonnes)} t`} /> : null),
          },
          { id: "binds", label: "Binds", wide: true, cell: (u) => (u.bound === "max" ? "max: all used" : u.bound === "min" ? "min: taken because it must be" : "—") },
          { id: "shadow", label: "One more tonne", num: true, cell: (u) => (u.shadowPrice === null ? "—" : <Num value={change(u.shadowPrice)} unit={PER_T} />) },
        ]}
      />
      <h2>Mixes</h2>
      {r.formulas.map((l) => (
        <Mix key={l.id} line={l} />
      ))}
    </>
  );
}

function Mix(props: { line: Line }) {
  const l = props.line;
  return (
    <details>
      <summary>
        {l.name}: {tonnes(l.tons)} {T} at {money(l.costPerTon!)} {PER_T}
      </summary>
      <Table
        caption={`Mix of ${l.name} in the plan`}
        rows={l.ingredients}
        rowKey={(i) => i.name}
        columns={[
          { id: "name", label: "Ingredient", cell: (i) => i.name },
          { id: "percent", label: "Inclusion", num: true, cell: (i) => <Num value={share(i.percent)} unit="%" /> },
          { id: "tons", label: "Over the plan", num: true, cell: (i) => <Num value={tonnes(i.tons)} unit={T} /> },
        ]}
      />
    </details>
  );
}

export function PlanPage(props: { id: string }) {
  const path = `/v1/plans/${encodeURIComponent(props.id)}`;
  const plan = useResource<Envelope<Plan>>(path);
  const p = plan.state === "ready" ? plan.data.data : null;
  // Asked at once, beside the plan, so the units are in before the solve's answer needs them.
  const units = useUnits();
  const candidates = candidatesOf();
  // The solve waits for the plan: a plan that does not exist is said once, by the plan's own request.
  const result = useResource<Envelope<PlanResult>>(p ? `${path}/optimize${candidates === "all" ? "?candidates=all" : ""}` : null);
  useEffect(() => {
    if (p) heading.value = `Plan · ${p.name}`;
  }, [p?.name]);
  // The moment the optimized plan is on screen, for bench/console.ts (as the Prices page marks its table).
  useEffect(() => {
    if (result.state === "ready" && !performance.getEntriesByName("console-ready").length) performance.mark("console-ready");
  }, [result.state]);
  return (
    <>
      <Loaded res={plan} what="the plan" rows={4}>
        {({ data: pl }) => (
          <>
            <p class="lead">
              {pl.lines.length} {pl.lines.length === 1 ? "formula" : "formulas"} · <Num value={tonnes(pl.lines.reduce((s, l) => s + l.tons, 0))} unit={T} /> ·{" "}
              {pl.supply.length === 0 ? "no supply limit" : `${pl.supply.length} supply ${pl.supply.length === 1 ? "limit" : "limits"}`} · changed {day(pl.updatedAt)}
            </p>
            <CandidatesSwitch formulaLabel="Each formula's own ingredients" />
            <Loaded res={result} what="the optimized plan (every formula together under the shared supply)" rows={8}>
              {({ data: r }) => <Result r={r} plan={pl} units={units} />}
            </Loaded>
          </>
        )}
      </Loaded>
      <p>
        <Link href={href(["plans"])}>All plans</Link>
      </p>
    </>
  );
}

/**
 * Optimize: the saved mix beside the optimum at today's prices, both mixes' nutrients against the
 * limits, the saving per tonne, binding limits with shadow prices and their ranges, price ranging and
 * the excluded candidates with the price at which they enter. What-if prices typed in place re-solve
 * 400 ms after the last keystroke (the `price=` overrides: nothing is stored); an older solve still
 * running is cancelled, so the answer shown is always the latest. Candidates from the formula or the
 * whole database. A write key saves the optimum as a new formula.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { money, PER_T, pct, perTon, shadow, share, shareChange, value } from "../format.ts";
import { limitUnit, useUnits, type Units } from "../nutrients.ts";
import { href, Link } from "../router.tsx";
import { BackToFormula, CandidatesSwitch, candidatesOf, useFormula } from "../formula-tools.tsx";
import type { Envelope, Optimization } from "../types.ts";
import { ErrorNote, Loaded, Loading, Num, Table } from "../ui.tsx";
import { NutrientBars } from "./formula.tsx";
import { SaveOptimum } from "./save-optimum.tsx";
import { session } from "../api.ts";

type Solve = { state: "solving"; last: Optimization | null } | { state: "done"; result: Optimization } | { state: "error"; error: ApiError; last: Optimization | null };

/** The optimize URL for a candidates view and the what-if prices (NAME=VALUE, percent-encoded as the API splits them). */
export function optimizeUrl(id: string, candidates: string, prices: Record<string, string>): string {
  const q = [`candidates=${candidates}`];
  for (const [name, value] of Object.entries(prices)) if (value.trim() !== "") q.push(`price=${encodeURIComponent(`${name}=${value.trim()}`)}`);
  return `/v1/formulas/${encodeURIComponent(id)}/optimize?${q.join("&")}`;
}

function WhatIf(props: { result: Optimization; prices: Record<string, string>; onPrice: (name: string, value: string) => void }) {
  const names = [...new Set([...(props.result.optimized?.ingredients ?? []).map((i) => i.name), ...props.result.current.ingredients.map((i) => i.name)])];
  const today = new Map([...props.result.current.ingredients, ...(props.result.optimized?.ingredients ?? []), ...(props.result.excluded ?? [])].map((i) => [i.name, i.price]));
  return (
    <fieldset class="whatif">
      <legend>What-if prices {PER_T} (nothing is stored; empty: today's price)</legend>
      <div class="grid">
        {names.map((n) => (
          <label key={n}>
            {n}
            <input inputMode="decimal" placeholder={today.has(n) ? money(today.get(n)!) : ""} value={props.prices[n] ?? ""} onInput={(e) => props.onPrice(n, e.currentTarget.value)} />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Mixes(props: { r: Optimization }) {
  const { r } = props;
  const names = [...new Set([...r.current.ingredients.map((i) => i.name), ...(r.optimized?.ingredients ?? []).map((i) => i.name)])];
  const saved = new Map(r.current.ingredients.map((i) => [i.name, i]));
  const best = new Map((r.optimized?.ingredients ?? []).map((i) => [i.name, i]));
  return (
    <Table
      caption="Saved mix beside the optimum (percent of the batch; prices per tonne today or as given above)"
      rows={names}
      rowKey={(n) => n}
      columns={[
        { id: "name", label: "Ingredient", cell: (n) => <Link href={href(["ingredients", n])}>{n}</Link> },
        { id: "price", label: "Price", num: true, wide: true, cell: (n) => <Num value={money((best.get(n) ?? saved.get(n))!.price)} unit={PER_T} /> },
        { id: "saved", label: "Saved", num: true, cell: (n) => <Num value={share(saved.get(n)?.percent ?? 0)} unit="%" /> },
        { id: "optimum", label: "Optimum", num: true, cell: (n) => <Num value={share(best.get(n)?.percent ?? 0)} unit="%" /> },
        { id: "delta", label: "Change", num: true, cell: (n) => <Num value={shareChange((best.get(n)?.percent ?? 0) - (saved.get(n)?.percent ?? 0))} unit="pts" /> },
      ]}
    />
  );
}

function Sensitivity(props: { r: Optimization; units: Units }) {
  const sp = props.r.shadowPrices;
  const binding = sp ? [...sp.nutrients, ...sp.ingredients, ...sp.ratios] : [];
  const nameOf = (s: (typeof binding)[number]) => s.key ?? s.name ?? `${s.numerator} : ${s.denominator}`;
  return (
    <>
      <h2 id="bind-h">Binding limits</h2>
      {binding.length === 0 ? (
        <p class="note empty">No limit binds: the optimum is set by prices alone.</p>
      ) : (
        <Table
          caption="Binding limits with their shadow price (cost per tonne of moving the limit by one unit) and the range where it holds"
          rows={binding}
          rowKey={(s) => `${nameOf(s)}-${s.bound}`}
          columns={[
            { id: "name", label: "Limit", cell: (s) => `${nameOf(s)} ${s.bound}` },
            { id: "limit", label: "At", num: true, cell: (s) => <Num value={value(s.limit)} unit={limitUnit(props.units, s)} /> },
            { id: "shadow", label: "Shadow price", num: true, cell: (s) => <Num value={shadow(s.shadowPrice)} unit={`${PER_T} per ${limitUnit(props.units, s) || "unit"}`} /> },
            { id: "range", label: "Holds from – to", num: true, wide: true, cell: (s) => <Num value={`${s.validFrom === null ? "−∞" : value(s.validFrom)} – ${s.validTo === null ? "∞" : value(s.validTo)}`} unit={limitUnit(props.units, s)} /> },
          ]}
        />
      )}
      <h2>Price ranging</h2>
      <Table
        caption="Prices per tonne between which the optimum keeps its composition"
        rows={props.r.ranging ?? []}
        rowKey={(g) => g.name}
        columns={[
          { id: "name", label: "Ingredient", cell: (g) => g.name },
          { id: "price", label: "Price", num: true, cell: (g) => <Num value={money(g.price)} unit={PER_T} /> },
          { id: "low", label: "Stays optimal from", num: true, cell: (g) => (g.priceLow === null ? "—" : <Num value={money(g.priceLow)} unit={PER_T} />) },
          { id: "high", label: "up to", num: true, cell: (g) => (g.priceHigh === null ? "no limit" : <Num value={money(g.priceHigh)} unit={PER_T} />) },
        ]}
      />
      <h2>Excluded candidates</h2>
      {(props.r.excluded ?? []).length === 0 ? (
        <p class="note empty">Every candidate is in the optimum.</p>
      ) : (
        <Table
          caption="Candidates left out, and the price per tonne below which each would enter"
          rows={props.r.excluded ?? []}
          rowKey={(x) => x.name}
          columns={[
            { id: "name", label: "Ingredient", cell: (x) => <Link href={href(["ingredients", x.name])}>{x.name}</Link> },
            { id: "price", label: "Price", num: true, cell: (x) => <Num value={money(x.price)} unit={PER_T} /> },
            { id: "enters", label: "Enters below", num: true, cell: (x) => (x.entersBelow === null ? "never (out of stock)" : <Num value={money(x.entersBelow)} unit={PER_T} />) },
          ]}
        />
      )}
    </>
  );
}

export function OptimizePage(props: { id: string }) {
  const candidates = candidatesOf();
  const { formula } = useFormula(props.id, (name) => `Optimize ${name}`);
  const units = useUnits();
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [solve, setSolve] = useState<Solve>({ state: "solving", last: null });
  const seq = useRef(0);
  const last = solve.state === "done" ? solve.result : solve.last;

  useEffect(() => {
    const n = ++seq.current;
    const ctrl = new AbortController();
    setSolve((s) => ({ state: "solving", last: s.state === "done" ? s.result : s.last }));
    const t = setTimeout(() => {
      api<Envelope<Optimization>>(optimizeUrl(props.id, candidates, prices), { signal: ctrl.signal }).then(
        (r) => n === seq.current && setSolve({ state: "done", result: r.data }),
        (e) => n === seq.current && !ctrl.signal.aborted && setSolve((s) => ({ state: "error", error: e instanceof ApiError ? e : new ApiError(String(e), 0), last: s.state === "done" ? s.result : s.last })),
      );
    }, Object.keys(prices).length ? 400 : 0);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [props.id, candidates, JSON.stringify(prices)]);

  return (
    <>
      <CandidatesSwitch />
      <p role="status" class="small solving" aria-live="polite">
        {solve.state === "solving" ? "Solving…" : solve.state === "done" ? `Solved: ${solve.result.status}.` : ""}
      </p>
      {solve.state === "error" ? <ErrorNote error={solve.error} what="The optimizer could not answer" /> : null}
      {last === null ? (
        solve.state === "solving" ? <Loading what="the optimum" rows={8} /> : null
      ) : last.status !== "optimal" || !last.optimized || !last.saving ? (
        <div class="note error">
          <p>No mix meets every limit at these prices{last.message ? `: ${last.message}` : "."}</p>
          {(last.conflicts ?? []).length ? (
            <ul>
              {last.conflicts!.map((c, i) => (
                <li key={i}>
                  {c.key ?? c.name} {c.bound} {c.limit !== undefined ? `${value(c.limit)} ${limitUnit(units, c)}` : ""}: best achievable {c.bestAchievable !== undefined ? `${value(c.bestAchievable)} ${limitUnit(units, c)}` : "—"}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <>
          <div class="facts" data-solved={solve.state === "done" ? "yes" : "no"}>
            <p>
              <span class="label">Saved mix today</span> <Num value={money(last.current.costPerTon ?? perTon(last.current.cost, last.batchSize))} unit={PER_T} class="big" />
            </p>
            <p>
              <span class="label">Optimum</span> <Num value={money(last.optimized.costPerTon)} unit={PER_T} class="big" />
            </p>
            <p>
              <span class="label">Saving</span> <Num value={money(last.saving.perTon)} unit={PER_T} class={last.saving.perTon < 0 ? "big saving up" : "big saving good"} /> <span class="small">({pct(last.saving.percent)}; {money(last.saving.perBatch)} per batch)</span>
              {last.saving.perTon < 0 ? <span class="small">The optimum costs more: the saved mix uses an ingredient now out of stock, or misses a limit.</span> : null}
            </p>
          </div>
          {session.value?.write ? <SaveOptimum formula={formula.state === "ready" ? formula.data.data : null} result={last} /> : null}
          <WhatIf result={last} prices={prices} onPrice={(name, value) => setPrices((p) => ({ ...p, [name]: value }))} />
          <h2>Composition</h2>
          <Mixes r={last} />
          <h2>Nutrients of the optimum against the limits</h2>
          <Loaded res={formula} what="the formula's limits" rows={4}>
            {({ data: f }) => (
              <>
                <NutrientBars nutrients={last.optimized!.nutrients} limits={f.constraints.nutrients} units={units} caption="Nutrients of the optimum against the limits" />
                <details>
                  <summary>Nutrients of the saved mix</summary>
                  <NutrientBars nutrients={f.nutrients} limits={f.constraints.nutrients} units={units} caption="Nutrients of the saved mix against the limits" />
                </details>
              </>
            )}
          </Loaded>
          <Sensitivity r={last} units={units} />
        </>
      )}
      <BackToFormula id={props.id} />
    </>
  );
}

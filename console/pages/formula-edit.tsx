/**
 * A write key's formula editor: composition (percent per row), nutrient limits, inclusion limits and
 * ratios, saved whole through PUT /v1/formulas/:id in the import's shape. Saved rows keep their saved
 * price; the achieved nutrients are left to the server to compute from the new composition. The
 * server's warnings (limits the new mix misses) are shown as it words them.
 */
import { useState } from "preact/hooks";
import { api } from "../api.ts";
import { share } from "../format.ts";
import { unitLabel, type Units } from "../nutrients.ts";
import type { Constraints, Envelope, FormulaDetail } from "../types.ts";

type Cell = string;
interface Draft {
  rows: { name: string; percent: Cell; price: number | undefined }[];
  nutrients: { key: string; min: Cell; max: Cell }[];
  ingredients: { name: string; min: Cell; max: Cell }[];
  ratios: { numerator: string; denominator: string; min: Cell; max: Cell }[];
}

const cell = (n: number | null): Cell => (n === null ? "" : String(n));
/** An empty cell is no bound; anything else must be a number. */
function bound(text: Cell, what: string): number | null {
  if (text.trim() === "") return null;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`${what} must be a number or empty`);
  return n;
}

function draftOf(f: FormulaDetail): Draft {
  return {
    rows: f.ingredients.map((r) => ({ name: r.name, percent: String(r.percent), price: r.price })),
    nutrients: f.constraints.nutrients.map((l) => ({ key: l.key, min: cell(l.min), max: cell(l.max) })),
    ingredients: f.constraints.ingredients.map((l) => ({ name: l.name, min: cell(l.min), max: cell(l.max) })),
    ratios: f.constraints.ratios.map((r) => ({ numerator: r.numerator, denominator: r.denominator, min: cell(r.min), max: cell(r.max) })),
  };
}

/** The PUT body: the import shape without `id`. */
function bodyOf(f: FormulaDetail, d: Draft) {
  const constraints: Constraints = {
    nutrients: d.nutrients.map((l) => ({ key: l.key, min: bound(l.min, `${l.key} min`), max: bound(l.max, `${l.key} max`) })),
    ingredients: d.ingredients.map((l) => ({ name: l.name, min: bound(l.min, `${l.name} min`), max: bound(l.max, `${l.name} max`) })),
    ratios: d.ratios.map((r) => ({ numerator: r.numerator, denominator: r.denominator, min: bound(r.min, `${r.numerator}:${r.denominator} min`), max: bound(r.max, `${r.numerator}:${r.denominator} max`) })),
  };
  const ingredients = d.rows
    .filter((r) => r.name.trim() !== "")
    .map((r) => {
      const percent = Number(r.percent);
      if (r.percent.trim() === "" || !Number.isFinite(percent)) throw new Error(`The percent of ${r.name} must be a number`);
      return { name: r.name.trim(), percent, ...(r.price !== undefined ? { price: r.price } : {}) };
    });
  return { name: f.name, species: f.species, subcategory: f.subcategory, batchSize: f.batchSize, createdAt: f.createdAt, ingredients, constraints };
}

function BoundInputs(props: { label: string; unit: string; min: Cell; max: Cell; onMin: (v: Cell) => void; onMax: (v: Cell) => void }) {
  return (
    <>
      <td class="num">
        <input aria-label={`${props.label} minimum (${props.unit})`} inputMode="decimal" value={props.min} onInput={(e) => props.onMin(e.currentTarget.value)} />
      </td>
      <td class="num">
        <input aria-label={`${props.label} maximum (${props.unit})`} inputMode="decimal" value={props.max} onInput={(e) => props.onMax(e.currentTarget.value)} />
      </td>
      <td class="small">{props.unit}</td>
    </>
  );
}

export function FormulaEditor(props: { formula: FormulaDetail; units: Units; onSaved: () => void; onClose: () => void }) {
  const f = props.formula;
  const [draft, setDraft] = useState<Draft>(() => draftOf(f));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string; warnings: string[] } | null>(null);
  const total = draft.rows.reduce((s, r) => s + (Number(r.percent) || 0), 0);
  const change = (fn: (d: Draft) => void) =>
    setDraft((d) => {
      const next = structuredClone(d);
      fn(next);
      return next;
    });

  async function save() {
    setBusy(true);
    setResult(null);
    try {
      const answer = await api<Envelope<FormulaDetail>>(`/v1/formulas/${encodeURIComponent(f.id)}`, { method: "PUT", body: bodyOf(f, draft) });
      const warnings = answer.data.warnings ?? [];
      setResult({ ok: true, text: warnings.length ? `Saved, with ${warnings.length} warning${warnings.length > 1 ? "s" : ""}:` : "Saved. The mix meets every limit.", warnings });
      props.onSaved();
    } catch (e) {
      // The API's refusal as it words it (a limit it cannot take, an unknown ingredient), or the editor's own.
      setResult({ ok: false, text: (e as Error).message, warnings: [] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="editor"
      aria-labelledby="edit-h"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="edit-h">Edit {f.name}</h2>
      <div class="table-wrap">
        <table>
          <caption>Composition (percent of the batch; total {share(total)} %)</caption>
          <thead>
            <tr>
              <th scope="col">Ingredient</th>
              <th scope="col" class="num">
                Inclusion %
              </th>
              <th scope="col">
                <span class="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {draft.rows.map((r, i) => (
              <tr key={i}>
                <td>
                  <input class="name" aria-label={`Ingredient of row ${i + 1}`} value={r.name} onInput={(e) => change((d) => void (d.rows[i]!.name = e.currentTarget.value))} />
                </td>
                <td class="num">
                  <input aria-label={`Inclusion of ${r.name || `row ${i + 1}`} (%)`} inputMode="decimal" value={r.percent} onInput={(e) => change((d) => void (d.rows[i]!.percent = e.currentTarget.value))} />
                </td>
                <td>
                  <button type="button" class="link" onClick={() => change((d) => void d.rows.splice(i, 1))}>
                    Remove <span class="sr-only">{r.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" class="secondary" onClick={() => change((d) => void d.rows.push({ name: "", percent: "", price: undefined }))}>
        Add an ingredient row
      </button>

      <div class="table-wrap">
        <table>
          <caption>Nutrient limits (empty: no bound)</caption>
          <thead>
            <tr>
              <th scope="col">Nutrient</th>
              <th scope="col" class="num">
                Min
              </th>
              <th scope="col" class="num">
                Max
              </th>
              <th scope="col">Unit</th>
            </tr>
          </thead>
          <tbody>
            {draft.nutrients.map((l, i) => (
              <tr key={l.key}>
                <th scope="row">{l.key}</th>
                <BoundInputs
                  label={l.key}
                  unit={unitLabel(props.units, l.key)}
                  min={l.min}
                  max={l.max}
                  onMin={(v) => change((d) => void (d.nutrients[i]!.min = v))}
                  onMax={(v) => change((d) => void (d.nutrients[i]!.max = v))}
                />
              </tr>
            ))}
            {draft.ingredients.map((l, i) => (
              <tr key={`i-${l.name}`}>
                <th scope="row">{l.name} (inclusion)</th>
                <BoundInputs label={l.name} unit="%" min={l.min} max={l.max} onMin={(v) => change((d) => void (d.ingredients[i]!.min = v))} onMax={(v) => change((d) => void (d.ingredients[i]!.max = v))} />
              </tr>
            ))}
            {draft.ratios.map((r, i) => (
              <tr key={`r-${r.numerator}-${r.denominator}`}>
                <th scope="row">
                  {r.numerator} : {r.denominator}
                </th>
                <BoundInputs
                  label={`${r.numerator} to ${r.denominator} ratio`}
                  unit="ratio"
                  min={r.min}
                  max={r.max}
                  onMin={(v) => change((d) => void (d.ratios[i]!.min = v))}
                  onMax={(v) => change((d) => void (d.ratios[i]!.max = v))}
                />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="row">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save formula"}
        </button>
        <button type="button" class="secondary" onClick={props.onClose}>
          Close the editor
        </button>
      </div>
      <div role="status" class="save-result">
        {result ? (
          <>
            <p class={result.ok ? "ok-text" : "error-text"}>{result.text}</p>
            {result.warnings.length ? (
              <ul class="warnings">
                {result.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            ) : null}
          </>
        ) : null}
      </div>
    </form>
  );
}

/**
 * A write key saves the optimum shown as a new formula (PUT /v1/formulas/:id with the optimized
 * percents and prices, the saved formula's limits), then can open it.
 */
import { useState } from "preact/hooks";
import { api, ApiError } from "../api.ts";
import { isoDay } from "../format.ts";
import { href, Link } from "../router.tsx";
import type { Envelope, FormulaDetail, Optimization } from "../types.ts";

export function SaveOptimum(props: { formula: FormulaDetail | null; result: Optimization }) {
  const f = props.formula;
  const [id, setId] = useState(() => `${props.result.id}-opt-${isoDay(Date.now()).replaceAll("-", "")}`.slice(0, 64));
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ ok: boolean; text: string; id?: string } | null>(null);
  if (!f || !props.result.optimized) return null;

  async function save() {
    setBusy(true);
    setDone(null);
    try {
      const body = {
        name: `${f!.name} (optimized ${isoDay(Date.now())})`,
        species: f!.species,
        subcategory: f!.subcategory,
        batchSize: f!.batchSize,
        ingredients: props.result.optimized!.ingredients.filter((i) => i.percent > 0).map((i) => ({ name: i.name, percent: i.percent, price: i.price })),
        constraints: f!.constraints,
      };
      const answer = await api<Envelope<FormulaDetail>>(`/v1/formulas/${encodeURIComponent(id)}`, { method: "PUT", body });
      const w = answer.data.warnings ?? [];
      setDone({ ok: true, text: w.length ? `Saved as ${id}, with warnings: ${w.join("; ")}` : `Saved as ${id}.`, id });
    } catch (e) {
      const text = e instanceof ApiError && e.status === 405 ? "This server cannot save formulas over HTTP yet (PUT /v1/formulas/:id)." : (e as Error).message;
      setDone({ ok: false, text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="editor inline"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        Save the optimum as formula id
        <input value={id} onInput={(e) => setId(e.currentTarget.value)} pattern="[A-Za-z0-9_.\-]{1,64}" required />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? "Saving…" : "Save as new formula"}
      </button>
      <p role="status" class={done ? (done.ok ? "ok-text" : "error-text") : "small"}>
        {done?.text ?? ""} {done?.id ? <Link href={href(["formulas", done.id])}>Open it</Link> : null}
      </p>
    </form>
  );
}

/**
 * What the pages that work on one formula (Optimize, Sweep, Frontier, Batch sheet, Confidence) share:
 * the formula itself, which names the page's heading; the candidates switch (the formula's own
 * ingredients or every ingredient in stock, kept in the URL); the way back to the formula.
 */
import { useEffect } from "preact/hooks";
import { heading, href, Link, navigate, place, withQuery } from "./router.tsx";
import { useResource } from "./resource.ts";
import type { Envelope, FormulaDetail } from "./types.ts";

/** The formula (GET /v1/formulas/:id); once it is in, the page's heading is `title(name)`. */
export function useFormula(id: string, title: (name: string) => string) {
  const formula = useResource<Envelope<FormulaDetail>>(`/v1/formulas/${encodeURIComponent(id)}`);
  const f = formula.state === "ready" ? formula.data.data : null;
  useEffect(() => {
    if (f) heading.value = title(f.name);
  }, [f?.name]);
  return { formula, f };
}

export type Candidates = "formula" | "all";

/** The candidates the URL asks for (`?candidates=all`; the formula's own by default). */
export const candidatesOf = (): Candidates => (place.value.query.get("candidates") === "all" ? "all" : "formula");

/** Two buttons that switch the candidates in the URL (no history entry: it is a view of the same page). */
export function CandidatesSwitch(props: { formulaLabel?: string }) {
  const candidates = candidatesOf();
  return (
    <div class="segmented" role="group" aria-label="Candidates">
      <button type="button" aria-pressed={candidates === "formula"} onClick={() => navigate(withQuery({ candidates: null }), true)}>
        {props.formulaLabel ?? "The formula's ingredients"}
      </button>
      <button type="button" aria-pressed={candidates === "all"} onClick={() => navigate(withQuery({ candidates: "all" }), true)}>
        Every ingredient in stock
      </button>
    </div>
  );
}

export function BackToFormula(props: { id: string; class?: string }) {
  return (
    <p class={props.class}>
      <Link href={href(["formulas", props.id])}>Back to the formula</Link>
    </p>
  );
}

/**
 * Optimizing to a confidence level in `make bench` (docs/decisions.md#optimizing-to-a-confidence-level):
 * bench/optimize.ts's seeded 60-candidate × 30-limit formula with seeded sds (1–5 % of each value, as
 * lab analyses of feed ingredients spread), in-process, the whole answer each time:
 *
 * 1. one optimization at P = 0.95 (the chance solve, its rounding, the P = 0.5 answer beside it and the
 *    blanket margin's solve); target under 100 ms;
 * 2. a 10-point confidence curve from 0.5 to 0.99; target under 1 s;
 *
 * each also as a ratio to the plain least-cost answer of the same formula measured in the same run.
 *
 * Run alone: `bun bench/confidence.ts` prints the RESULTS.md section and writes it into bench/RESULTS.md
 * (replacing its own section); `make bench` runs it after bench/frontier.ts.
 */
import { loadavg } from "node:os";
import { seeded } from "../src/domain/random.ts";
import { confidenceTask } from "../src/optimize/chance-task.ts";
import { confidenceCurveTask } from "../src/optimize/confidence-curve.ts";
import { optimizeInput, optimizeTask } from "../src/optimize/optimize-task.ts";
import { NO_OPTIONS } from "../src/optimize/result.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { medianOf, quantile } from "./history.ts";
import { largeFormula } from "./optimize.ts";
import { writeSection } from "./results-file.ts";

const HEADING = "## Optimizing to a confidence level";
const RUNS = { plain: 40, confidence: 15, curve: 5 };
const POINTS = 10;
const TARGET = { confidenceMs: 100, curveMs: 1000 };

function timed(n: number, work: () => unknown): number[] {
  work(); // warm-up
  return Array.from({ length: n }, () => {
    const started = performance.now();
    work();
    return performance.now() - started;
  });
}

export interface ConfidenceBench {
  plainMs: number[];
  confidenceMs: number[];
  curveMs: number[];
  premium: number | null;
  feasiblePoints: number;
}

/** @example const b = await benchConfidence(); medianOf(b.confidenceMs) // 60.1 */
export async function benchConfidence(): Promise<ConfidenceBench> {
  const highs = await solverRuntime();
  const { formula, lookup } = largeFormula();
  const input = optimizeInput(formula, lookup, NO_OPTIONS);
  const next = seeded(60_30_95);
  const sds = Object.fromEntries(input.ingredients.map((d) => [d.name, Object.fromEntries(Object.entries(d.nutrients).map(([k, v]) => [k, Math.round(v * (0.01 + next() * 0.04) * 1000) / 1000]))]));
  const atP = { ...input, confidence: 0.95, sds };
  const curve = { ...input, sds, from: 0.5, to: 0.99, points: POINTS };
  const answer = confidenceTask(highs, atP);
  const feasiblePoints = confidenceCurveTask(highs, curve).points.filter((p) => p.costPerTon !== null).length;
  return {
    plainMs: timed(RUNS.plain, () => optimizeTask(highs, input)),
    confidenceMs: timed(RUNS.confidence, () => confidenceTask(highs, atP)),
    curveMs: timed(RUNS.curve, () => confidenceCurveTask(highs, curve)),
    premium: "premium" in answer ? answer.premium : null,
    feasiblePoints,
  };
}

/** The RESULTS.md section. */
export function renderConfidence(b: ConfidenceBench): string[] {
  const plain = medianOf(b.plainMs);
  const one = medianOf(b.confidenceMs);
  const curve = medianOf(b.curveMs);
  const line = (what: string, ms: number[], median: number, target: number, runs: number) =>
    `- ${what}, ${runs} runs: median **${median.toFixed(1)} ms**, p90 ${quantile(ms, 0.9).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms — ${median < target ? "under" : "OVER"} the ${target} ms target; **${(median / plain).toFixed(1)} ×** the plain least-cost answer.`;
  return [
    HEADING,
    "",
    `Measured ${new Date().toISOString().slice(0, 16)}Z by \`bun bench/confidence.ts\` on a shared 2-core machine at a load average of ${loadavg()[0]!.toFixed(1)} (figures are for reading, not asserted; the ratios are the figures that carry over).`,
    "",
    `The seeded 60 × 30 formula of the least-cost section with seeded sds (1–5 % of each value), in-process, the whole answer each time. The plain least-cost answer of the same formula in the same run: median ${plain.toFixed(2)} ms (${RUNS.plain} runs).`,
    "",
    line(`At P = 0.95 (premium ${b.premium ?? "-"} per tonne; includes the P = 0.5 answer and the blanket margin's solve)`, b.confidenceMs, one, TARGET.confidenceMs, RUNS.confidence),
    line(`A ${POINTS}-point curve from 0.5 to 0.99 (${b.feasiblePoints} of ${POINTS} points feasible)`, b.curveMs, curve, TARGET.curveMs, RUNS.curve),
  ];
}

if (import.meta.main) {
  const section = renderConfidence(await benchConfidence());
  process.stdout.write(section.join("\n") + "\n");
  writeSection(section);
  process.exit(0);
}

/**
 * The cost–CO2e frontier's figure of `make bench` (docs/decisions.md#carbon-footprint): an 11-point
 * frontier of bench/optimize.ts's seeded 60-candidate × 30-limit formula, with seeded footprints,
 * in-process (the whole answer: every solve, the rounding, the abatement), against one least-cost
 * answer of the same formula in the same run. Target: under 100 ms.
 *
 * Run alone: `bun bench/frontier.ts` prints the RESULTS.md section and writes it into bench/RESULTS.md
 * (replacing its own section); `make bench` runs it after bench/optimize.ts.
 */
import { loadavg } from "node:os";
import { seeded } from "../src/domain/random.ts";
import { frontierTask } from "../src/optimize/frontier-task.ts";
import { NO_OPTIONS, candidatesOf, optimizeFormula } from "../src/optimize/result.ts";
import { solverRuntime } from "../src/optimize/runtime.ts";
import { medianOf, quantile } from "./history.ts";
import { largeFormula } from "./optimize.ts";
import { writeSection } from "./results-file.ts";

const HEADING = "## Cost–CO2e frontier";
const RUNS = 40;
const POINTS = 11;
const TARGET_MS = 100;

function timed(n: number, work: () => unknown): number[] {
  for (let i = 0; i < 3; i++) work(); // warm-up
  return Array.from({ length: n }, () => {
    const started = performance.now();
    work();
    return performance.now() - started;
  });
}

export interface FrontierBench {
  frontierMs: number[];
  optimizeMs: number[];
  points: number;
}

/** @example const b = await benchFrontier(); medianOf(b.frontierMs) // 30.2 */
export async function benchFrontier(): Promise<FrontierBench> {
  const highs = await solverRuntime();
  const { formula, lookup } = largeFormula();
  // Footprints from 0.2 to 5 kg CO2e per kg, so the frontier spans a real trade-off.
  const next = seeded(60_30);
  const candidates = candidatesOf(formula, lookup, NO_OPTIONS).map((c) => ({ ...c, co2e: Math.round((0.2 + next() * 4.8) * 100) / 100 }));
  const input = { id: formula.id, name: formula.name, candidates, constraints: formula.constraints, points: POINTS };
  const points = frontierTask(highs, input).points.length;
  const frontierMs = timed(RUNS, () => frontierTask(highs, input));
  const optimizeMs = timed(RUNS, () => optimizeFormula(highs, formula, lookup, NO_OPTIONS));
  return { frontierMs, optimizeMs, points };
}

/** The RESULTS.md section. */
export function renderFrontier(b: FrontierBench): string[] {
  const f = medianOf(b.frontierMs);
  const o = medianOf(b.optimizeMs);
  return [
    HEADING,
    "",
    `Measured ${new Date().toISOString().slice(0, 16)}Z by \`bun bench/frontier.ts\` on a shared 2-core machine at a load average of ${loadavg()[0]!.toFixed(1)} (figures are for reading, not asserted; the ratio is the figure that carries over).`,
    "",
    `An ${b.points}-point frontier of the seeded 60 × 30 formula (footprints 0.2–5 kg CO2e per kg), in-process, ${RUNS} runs: median **${f.toFixed(2)} ms**, ` +
      `p90 ${quantile(b.frontierMs, 0.9).toFixed(2)} ms, max ${Math.max(...b.frontierMs).toFixed(2)} ms — ${f < TARGET_MS ? "under" : "OVER"} the ${TARGET_MS} ms target; ` +
      `${(f / o).toFixed(2)} × one least-cost answer of the same formula in the same run (median ${o.toFixed(2)} ms; the frontier is ${b.points + 3} LP solves without ranging).`,
  ];
}

if (import.meta.main) {
  const section = renderFrontier(await benchFrontier());
  process.stdout.write(section.join("\n") + "\n");
  writeSection(section);
  process.exit(0);
}

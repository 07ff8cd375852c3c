/**
 * A text chart of a frontier: cost per tonne (up) against kg CO2e per tonne (right), one `*` per point,
 * the axes labelled with their ends and units, for a terminal 80 columns wide.
 */

export interface ChartPoint {
  co2ePerTon: number;
  costPerTon: number;
}

const fit = (v: number, lo: number, hi: number, cells: number) => (hi === lo ? 0 : Math.round(((v - lo) / (hi - lo)) * (cells - 1)));

/**
 * @example frontierChart([{ co2ePerTon: 1694.7, costPerTon: 291.79 }, { co2ePerTon: 446.2, costPerTon: 302.46 }]).join("\n")
 */
export function frontierChart(points: readonly ChartPoint[], size = { width: 56, height: 12 }): string[] {
  const xs = points.map((p) => p.co2ePerTon);
  const ys = points.map((p) => p.costPerTon);
  const [xLo, xHi, yLo, yHi] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const height = yHi === yLo ? 1 : size.height;
  const grid = Array.from({ length: height }, () => new Array<string>(size.width).fill(" "));
  for (const p of points) grid[height - 1 - fit(p.costPerTon, yLo, yHi, height)]![fit(p.co2ePerTon, xLo, xHi, size.width)] = "*";
  const labels = grid.map((_, r) => (r === 0 ? yHi.toFixed(2) : r === height - 1 ? yLo.toFixed(2) : ""));
  const pad = Math.max(...labels.map((l) => l.length), "cost/t".length);
  const lines = ["cost/t".padStart(pad)];
  grid.forEach((row, r) => lines.push(`${labels[r]!.padStart(pad)} ${labels[r] ? "┤" : "│"}${row.join("").trimEnd()}`));
  lines.push(`${" ".repeat(pad)} └${"─".repeat(size.width)}`);
  const left = xLo.toFixed(1);
  const right = xHi.toFixed(1);
  const unit = "kg CO2e per tonne of feed";
  const gap = Math.max(1, size.width - left.length - right.length - unit.length);
  lines.push(`${" ".repeat(pad + 2)}${left}${" ".repeat(Math.floor(gap / 2))}${unit}${" ".repeat(Math.ceil(gap / 2))}${xLo === xHi ? "" : right}`.trimEnd());
  return lines;
}

const BARS = "▁▂▃▄▅▆▇█";

/**
 * A one-line chart of a series, oldest first, scaled between its own low and high (people read a
 * trend faster than a column). A longer series is cut into `width` equal spans, each shown by its
 * last value (the price that span ended at); a flat series is a flat middle line.
 * @example sparkline([220, 224, 231, 228, 240]) // "▁▂▅▄█"
 */
export function sparkline(values: readonly number[], width = 60): string {
  if (values.length === 0) return "";
  const points = values.length <= width ? values : Array.from({ length: width }, (_, i) => values[Math.ceil(((i + 1) * values.length) / width) - 1]!);
  const low = Math.min(...points);
  const high = Math.max(...points);
  if (high === low) return BARS[3]!.repeat(points.length);
  return points.map((v) => BARS[Math.round(((v - low) / (high - low)) * (BARS.length - 1))]!).join("");
}

/**
 * The Prometheus text exposition format (version 0.0.4), for the few metric families feedbase keeps.
 * Series are found by one string key made of their label values, so recording a request is a Map
 * lookup and an addition; label sets are fixed by the caller (route templates, not names), which keeps
 * the number of series bounded.
 */

/** `{a="x",b="y"}` with the format's escapes (backslash, double quote, newline). */
function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return "";
  const pairs = names.map((name, i) => `${name}="${values[i]!.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`);
  return `{${pairs.join(",")}}`;
}

function header(name: string, help: string, type: string): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;
}

/** A number as the format writes it. */
function num(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/**
 * A counter family: one value per label set, only ever increased.
 * @example const c = new Counter("feedbase_x_total", "Things.", ["kind"]); c.inc(["a"]); c.render()
 */
export class Counter {
  private readonly series = new Map<string, { labels: string; value: number }>();

  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[] = []) {}

  inc(values: readonly string[] = [], by = 1): void {
    const key = values.join("\u0000");
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: labelText(this.labelNames, values), value: 0 }));
    s.value += by;
  }

  /** Show a label set at 0 before anything happened, so rate() and alerts see it from the start. */
  declare(values: readonly string[]): void {
    this.inc(values, 0);
  }

  render(): string {
    let out = header(this.name, this.help, "counter");
    for (const s of this.series.values()) out += `${this.name}${s.labels} ${num(s.value)}\n`;
    return out;
  }
}

/**
 * A histogram family with fixed upper bounds (the format's cumulative `_bucket`, `_sum`, `_count`).
 * @example const h = new Histogram("feedbase_x_seconds", "Time.", [0.001, 0.01], ["route"]); h.observe(["/v1/health"], 0.0004)
 */
export class Histogram {
  private readonly series = new Map<string, { labels: readonly string[]; counts: Float64Array; sum: number; count: number }>();

  constructor(readonly name: string, readonly help: string, readonly bounds: readonly number[], readonly labelNames: readonly string[] = []) {}

  observe(values: readonly string[], value: number): void {
    const key = values.join("\u0000");
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: [...values], counts: new Float64Array(this.bounds.length), sum: 0, count: 0 }));
    // Counts per bucket (not cumulative) here; render adds them up.
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    if (i < this.bounds.length) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  render(): string {
    let out = header(this.name, this.help, "histogram");
    const names = [...this.labelNames, "le"];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += s.counts[i]!;
        out += `${this.name}_bucket${labelText(names, [...s.labels, num(bound)])} ${cumulative}\n`;
      });
      out += `${this.name}_bucket${labelText(names, [...s.labels, "+Inf"])} ${s.count}\n`;
      const labels = labelText(this.labelNames, s.labels);
      out += `${this.name}_sum${labels} ${num(s.sum)}\n${this.name}_count${labels} ${s.count}\n`;
    }
    return out;
  }
}

/**
 * A gauge family read when scraped: `samples` are label values and a value.
 * @example gauge("feedbase_data_file_bytes", "Size.", [], [[[], 4096]])
 */
export function gauge(name: string, help: string, labelNames: readonly string[], samples: readonly (readonly [readonly string[], number])[]): string {
  let out = header(name, help, "gauge");
  for (const [values, value] of samples) out += `${name}${labelText(labelNames, values)} ${num(value)}\n`;
  return out;
}

/**
 * The Prometheus text exposition format (version 0.0.4), for the few metric families feedbase keeps.
 * `series(labelValues)` returns a handle the caller keeps, so recording on a hot path is an addition
 * with nothing allocated; label sets are fixed by the caller (route templates, not names), which keeps
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
  private readonly all = new Map<string, { labels: string; value: number }>();

  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[] = []) {}

  /** The series of these label values (made at 0 the first time, so rate() and alerts see it from the start). */
  series(values: readonly string[] = []): { value: number } {
    const key = values.join("\u0000");
    let s = this.all.get(key);
    if (!s) this.all.set(key, (s = { labels: labelText(this.labelNames, values), value: 0 }));
    return s;
  }

  inc(values: readonly string[] = [], by = 1): void {
    this.series(values).value += by;
  }

  render(): string {
    let out = header(this.name, this.help, "counter");
    for (const s of this.all.values()) out += `${this.name}${s.labels} ${num(s.value)}\n`;
    return out;
  }
}

/** One label set of a histogram: counts per bucket (not cumulative; render adds them up). */
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly labels: readonly string[], private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    if (i < this.bounds.length) this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

/**
 * A histogram family with fixed upper bounds (the format's cumulative `_bucket`, `_sum`, `_count`).
 * @example const h = new Histogram("feedbase_x_seconds", "Time.", [0.001, 0.01], ["route"]); h.observe(["/v1/health"], 0.0004)
 */
export class Histogram {
  private readonly all = new Map<string, HistogramSeries>();

  constructor(readonly name: string, readonly help: string, readonly bounds: readonly number[], readonly labelNames: readonly string[] = []) {}

  series(values: readonly string[] = []): HistogramSeries {
    const key = values.join("\u0000");
    let s = this.all.get(key);
    if (!s) this.all.set(key, (s = new HistogramSeries([...values], this.bounds)));
    return s;
  }

  observe(values: readonly string[], value: number): void {
    this.series(values).observe(value);
  }

  render(): string {
    let out = header(this.name, this.help, "histogram");
    const names = [...this.labelNames, "le"];
    for (const s of this.all.values()) {
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

/**
 * The "Webhook latency and throughput" section of bench/RESULTS.md from what bench/webhooks.ts prints:
 * SQLite and PostgreSQL side by side, with PostgreSQL ÷ SQLite.
 */

/** One backend's figures. */
export interface WebhookFigures {
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  deliveriesPerSecond1Webhook: number;
  putsPerSecond1Webhook: number;
  deliveriesPerSecond8Webhooks: number;
  putsPerSecond8Webhooks: number;
  /** The side's whole time, warm-up and webhook adds included. */
  seconds: number;
}

/** What bench/webhooks.ts prints: SQLite's figures and, when a cluster was given, PostgreSQL's beside them. */
export interface WebhookBench {
  mode: "executable" | "in-process";
  latencyPuts: number;
  throughputPuts: number;
  clients: number;
  sqlite: WebhookFigures;
  postgres: { version: string; figures: WebhookFigures } | null;
  /** Why PostgreSQL was not measured, when it was not. */
  postgresNote: string | null;
}

/** What bench/run.ts kept of bench/webhooks.ts's run: its figures, or its output when it printed none. */
export interface WebhookRun {
  figures: WebhookBench | null;
  raw: string;
}

const ROWS: [label: string, figure: keyof WebhookFigures][] = [
  ["latency p50, ms", "latencyP50Ms"],
  ["latency p99, ms", "latencyP99Ms"],
  ["latency max, ms", "latencyMaxMs"],
  ["deliveries a second, 1 webhook", "deliveriesPerSecond1Webhook"],
  ["PUTs a second meanwhile, 1 webhook", "putsPerSecond1Webhook"],
  ["deliveries a second, 8 webhooks", "deliveriesPerSecond8Webhooks"],
  ["PUTs a second meanwhile, 8 webhooks", "putsPerSecond8Webhooks"],
  ["time for the side, s (warm-up included)", "seconds"],
];

const figure = (x: number) => (Math.abs(x) >= 100 ? Math.round(x).toLocaleString("en-US") : String(x));

/**
 * The section's lines: a table with a SQLite and a PostgreSQL column and their ratio (a dash where
 * a side was not measured, or the ratio means nothing because SQLite's figure is not above 0).
 * @example for (const l of renderWebhooks(run)) line(l)
 */
export function renderWebhooks(run: WebhookRun): string[] {
  const out = ["## Webhook latency and throughput", ""];
  const w = run.figures;
  if (!w) return [...out, "bench/webhooks.ts printed no JSON object; its output:", "", "```", run.raw.trim().slice(0, 4000), "```", ""];
  const pg = w.postgres?.figures ?? null;
  out.push(
    `From bench/webhooks.ts (${w.mode === "executable" ? "the executable" : "in-process"}): \`feedbase serve --data\` on a file of 200 ingredients with one webhook` +
      (w.postgres
        ? `, then, in the same run on this machine, \`feedbase serve --database\` on a copy of that file (\`feedbase copy-to\`, made before either ran) in PostgreSQL ${w.postgres.version}, ` +
          "make bench's throwaway cluster with default settings (fsync on); both deliver to one loopback receiver. "
        : ", delivering to a loopback receiver. ") +
      `Latency: ${w.latencyPuts} PUTs one at a time, each waiting for its delivery, from the acknowledged response to the arrival ` +
      `(negative when the delivery starts before the response's last byte is read). Throughput: ${w.throughputPuts.toLocaleString("en-US")} PUTs from ` +
      `${w.clients} clients, deliveries a second from the first PUT to the last arrival, with 1 webhook, then with 8 (7 added by \`feedbase webhook add\` ` +
      "while the server runs); PUTs a second over the same PUTs." +
      (w.postgres ? " PostgreSQL ÷ SQLite: above 1 is slower for latency, faster for the rates." : ""),
    "",
    "| figure | SQLite | PostgreSQL | PostgreSQL ÷ SQLite |",
    "|---|---:|---:|---:|",
  );
  for (const [label, key] of ROWS) {
    const lite = w.sqlite[key];
    const ratio = pg && lite > 0 ? (pg[key] / lite).toFixed(2) : "—";
    out.push(`| ${label} | ${figure(lite)} | ${pg ? figure(pg[key]) : "—"} | ${ratio} |`);
  }
  if (w.postgresNote) out.push("", `PostgreSQL not measured: ${w.postgresNote}.`);
  out.push("");
  return out;
}

/**
 * Pieces every page uses: states a person understands, tables with sortable columns, numbers with their
 * units, sparklines and limit bars. Styles are classes and SVG attributes only: the page's CSP refuses
 * inline styles, so no `style="..."` string is ever set.
 */
import type { ComponentChildren } from "preact";
import type { ApiError } from "./api.ts";
import type { Resource } from "./resource.ts";

/** A number right-aligned with its unit. */
export function Num(props: { value: string; unit?: string | null | undefined; class?: string }) {
  return (
    <span class={`num ${props.class ?? ""}`}>
      {props.value}
      {props.unit ? <span class="unit"> {props.unit}</span> : null}
    </span>
  );
}

/** An error as a sentence, the request id in small print for the admin's log. */
export function ErrorNote(props: { error: ApiError; retry?: () => void; what?: string }) {
  const { error } = props;
  return (
    <div class="note error" role="alert">
      <p>
        {props.what ? `${props.what}: ` : ""}
        {error.message}
      </p>
      {error.requestId ? <p class="small">Request id {error.requestId}</p> : null}
      {props.retry ? (
        <button type="button" onClick={props.retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** Placeholder rows at their final height while data loads. */
export function Loading(props: { what: string; rows?: number }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <p class="small">Loading {props.what}…</p>
      {Array.from({ length: props.rows ?? 4 }, (_, i) => (
        <div key={i} class="skeleton" />
      ))}
    </div>
  );
}

/** Loading, error or the content: one resource's three states. */
export function Loaded<T>(props: { res: Resource<T> & { reload(): void }; what: string; rows?: number; children: (data: T) => ComponentChildren }) {
  const { res } = props;
  if (res.state === "loading") return <Loading what={props.what} rows={props.rows ?? 4} />;
  if (res.state === "error") return <ErrorNote error={res.error} retry={res.reload} what={`Could not load ${props.what}`} />;
  return <>{props.children(res.data)}</>;
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="note empty">{props.children}</p>;
}

export interface Column<R> {
  id: string;
  label: string;
  /** Right-aligned (numbers). */
  num?: boolean;
  cell: (row: R) => ComponentChildren;
  /** Left out on a phone-wide screen (below 640 px): a column that helps but is not the point. */
  wide?: boolean;
  /** What sorting compares; no sort button without it. */
  sortBy?: (row: R) => string | number;
}

export interface Sort {
  by: string;
  dir: "asc" | "desc";
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** Rows sorted by a column (names by Intl.Collator, numbers numerically); stable. */
export function sortRows<R>(rows: readonly R[], columns: readonly Column<R>[], sort: Sort | null): R[] {
  const col = sort && columns.find((c) => c.id === sort.by);
  if (!col?.sortBy) return [...rows];
  const key = col.sortBy;
  const sign = sort!.dir === "asc" ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i, k: key(row) }))
    .sort((a, b) => {
      const d = typeof a.k === "number" && typeof b.k === "number" ? a.k - b.k : collator.compare(String(a.k), String(b.k));
      return d !== 0 ? d * sign : a.i - b.i;
    })
    .map((x) => x.row);
}

/** A table with a caption and, where a column sorts, a button in its header (aria-sort on the sorted one). */
export function Table<R>(props: {
  caption: string;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
  sort?: Sort | null;
  onSort?: (sort: Sort) => void;
  rowClass?: (row: R) => string;
}) {
  const { sort, onSort } = props;
  return (
    <div class="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => {
              const sorted = sort?.by === c.id ? sort.dir : null;
              const ariaSort: "ascending" | "descending" | undefined = sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined;
              return (
                <th key={c.id} scope="col" class={`${c.num ? "num" : ""} ${c.wide ? "wide-only" : ""}`} aria-sort={ariaSort}>
                  {c.sortBy && onSort ? (
                    <button type="button" class="sort" onClick={() => onSort({ by: c.id, dir: sorted === "asc" ? "desc" : "asc" })}>
                      {c.label}
                      <span aria-hidden="true" class="arrow">
                        {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                      </span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} class={props.rowClass?.(row)}>
              {props.columns.map((c) => (
                <td key={c.id} class={`${c.num ? "num" : ""} ${c.wide ? "wide-only" : ""}`} data-col={c.id}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A price line over a window, as SVG points (attributes, never styles); out-of-stock stretches as ticks below. */
export function Sparkline(props: { points: readonly { t: number; v: number; out: boolean }[]; from: number; to: number; label: string }) {
  const { points } = props;
  const w = 120;
  const h = 28;
  if (points.length === 0) return <span class="small">no history</span>;
  const values = points.map((p) => p.v);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const x = (t: number) => ((Math.max(t, props.from) - props.from) / Math.max(1, props.to - props.from)) * w;
  const y = (v: number) => (hi === lo ? h / 2 : 2 + (1 - (v - lo) / (hi - lo)) * (h - 6));
  // A step line: each price holds until the next entry, the last until now.
  let d = "";
  points.forEach((p, i) => {
    const next = points[i + 1]?.t ?? props.to;
    d += `${i === 0 ? "M" : "L"}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}H${x(next).toFixed(1)}`;
  });
  return (
    <svg class="spark" viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img" aria-label={props.label}>
      {points.map((p, i) =>
        p.out ? <rect key={i} class="spark-out" x={x(p.t)} y={h - 3} width={Math.max(1, x(points[i + 1]?.t ?? props.to) - x(p.t))} height={3} /> : null,
      )}
      <path d={d} class="spark-line" fill="none" />
    </svg>
  );
}

/** Where a value sits against its min and max: a bar with the allowed band and the achieved mark. */
export function LimitBar(props: { value: number | null; min: number | null; max: number | null; label: string }) {
  const { value, min, max } = props;
  const tol = 1e-9;
  const top = Math.max(value ?? 0, max ?? 0, min ?? 0) * 1.15 || 1;
  const w = 200;
  const px = (v: number) => Math.max(0, Math.min(w, (v / top) * w));
  const state = value === null ? "none" : min !== null && value < min - tol ? "low" : max !== null && value > max + tol ? "high" : "ok";
  return (
    <svg class={`limitbar ${state}`} viewBox={`0 0 ${w} 14`} preserveAspectRatio="none" role="img" aria-label={props.label}>
      <rect class="track" x={0} y={4} width={w} height={6} rx={3} />
      <rect class="band" x={px(min ?? 0)} y={2} width={Math.max(1, px(max ?? top) - px(min ?? 0))} height={10} rx={2} />
      {value !== null ? <rect class="fill" x={0} y={5} width={px(value)} height={4} rx={2} /> : null}
      {value !== null ? <rect class="mark" x={Math.max(0, px(value) - 1.5)} y={0} width={3} height={14} /> : null}
    </svg>
  );
}

/** A limit as text: "≥ 21.5", "≤ 4.5", "21.5 – 23", "—". */
export function limitText(min: number | null, max: number | null, show: (n: number) => string): string {
  if (min !== null && max !== null) return min === max ? `= ${show(min)}` : `${show(min)} – ${show(max)}`;
  if (min !== null) return `≥ ${show(min)}`;
  if (max !== null) return `≤ ${show(max)}`;
  return "—";
}

/**
 * A price history as a step chart (uPlot, drawn on a canvas): each price holds until the next entry;
 * stretches out of stock are shaded. Colours come from the page's CSS custom properties, so the chart
 * follows light and dark; its size follows its box (ResizeObserver). A table beside it carries the
 * same figures for screen readers.
 */
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "preact/hooks";
import { money, PER_T, shortDay } from "./format.ts";

export interface StepPoint {
  /** Milliseconds since the epoch. */
  t: number;
  price: number;
  inStock: boolean;
}

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** An axis in the page's colours (read when drawn, so a redraw follows light and dark). */
const themed = (more: uPlot.Axis = {}): uPlot.Axis => ({ stroke: css("--muted"), ticks: { stroke: css("--grid") }, ...more, grid: { stroke: css("--grid"), ...more.grid } });

/**
 * A uPlot in a box: drawn at the box's width, resized with it (ResizeObserver, one frame later), drawn
 * again in the new colours when the system turns light or dark. Returns the effect's cleanup.
 */
function mountPlot(el: HTMLElement, height: number, make: (size: { width: number; height: number }) => uPlot): () => void {
  const draw = () => make({ width: Math.max(280, el.clientWidth), height });
  let plot = draw();
  let frame = 0;
  const resize = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => plot.setSize({ width: Math.max(280, el.clientWidth), height }));
  });
  resize.observe(el);
  const scheme = matchMedia("(prefers-color-scheme: dark)");
  const redraw = () => {
    plot.destroy();
    plot = draw();
  };
  scheme.addEventListener("change", redraw);
  return () => {
    resize.disconnect();
    scheme.removeEventListener("change", redraw);
    cancelAnimationFrame(frame);
    plot.destroy();
  };
}

export function StepChart(props: { points: readonly StepPoint[]; to: number; label: string; yLabel: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || props.points.length === 0) return;
    // The last price holds until the end of the window.
    const pts = [...props.points, { ...props.points[props.points.length - 1]!, t: props.to }];
    const xs = pts.map((p) => p.t / 1000);
    const ys = pts.map((p) => p.price);
    const outs: [number, number][] = [];
    pts.forEach((p, i) => {
      if (!p.inStock && i < pts.length - 1) outs.push([p.t / 1000, pts[i + 1]!.t / 1000]);
    });
    return mountPlot(
      el,
      260,
      (size) =>
        new uPlot(
          {
            ...size,
            tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
            legend: { show: false },
            cursor: { y: false },
            scales: { x: { time: true } },
            // Days as the rest of the console writes them ("5 Jun"), not uPlot's month/day.
            axes: [themed({ values: (_, ticks) => ticks.map((t) => shortDay(t * 1000)) }), themed({ size: 64, values: (_, vals) => vals.map((v) => `${v}`), label: props.yLabel })],
            series: [
              {},
              {
                label: props.yLabel,
                stroke: css("--accent"),
                width: 2,
                paths: uPlot.paths.stepped!({ align: 1 }),
                points: { show: false },
                value: (_, v) => (v == null ? "" : `${money(v)} ${PER_T}`),
              },
            ],
            hooks: {
              drawClear: [
                (u) => {
                  const { ctx } = u;
                  ctx.save();
                  ctx.fillStyle = css("--out-shade");
                  for (const [a, b] of outs) {
                    const x0 = u.valToPos(a, "x", true);
                    const x1 = u.valToPos(b, "x", true);
                    ctx.fillRect(x0, u.bbox.top, Math.max(1, x1 - x0), u.bbox.height);
                  }
                  ctx.restore();
                },
              ],
            },
          },
          [xs, ys],
          el,
        ),
    );
  }, [props.points, props.to]);
  return <div class="chart" ref={box} role="img" aria-label={props.label} data-points={props.points.length} />;
}

export interface Line {
  label: string;
  values: readonly (number | null)[];
  /** A step at each x (percents that hold until a breakpoint), or a straight line between points. */
  stepped?: boolean;
  /** Which y axis: 0 on the left, 1 on the right. */
  axis?: 0 | 1;
}

/**
 * Lines over a numeric x (a price, a footprint), one or two y axes, each axis labelled with its unit.
 * xs must ascend. A table beside the chart carries the figures for screen readers.
 */
export function XYChart(props: { xs: readonly number[]; lines: readonly Line[]; xLabel: string; yLabels: readonly [string] | readonly [string, string]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || props.xs.length === 0) return;
    const colours = ["--accent", "--up"];
    const axis = (i: 0 | 1): uPlot.Axis => themed({ scale: i === 0 ? "y" : "y2", side: i === 0 ? 3 : 1, label: props.yLabels[i], grid: { show: i === 0 }, size: 64 });
    return mountPlot(
      el,
      280,
      (size) =>
        new uPlot(
          {
            ...size,
            // The series' names only: values under the cursor would read "--" until a person points.
            legend: { show: props.lines.length > 1, live: false },
            cursor: { y: false },
            scales: { x: { time: false }, y: {}, ...(props.yLabels.length > 1 ? { y2: {} } : {}) },
            axes: [themed({ label: props.xLabel }), axis(0), ...(props.yLabels.length > 1 ? [axis(1)] : [])],
            series: [
              { label: props.xLabel },
              ...props.lines.map((l, i) => ({
                label: l.label,
                scale: l.axis === 1 ? "y2" : "y",
                stroke: css(colours[i % colours.length]!),
                width: 2,
                ...(l.stepped ? { paths: uPlot.paths.stepped!({ align: 1 }) } : {}),
                points: { show: !l.stepped },
              })),
            ],
          },
          [props.xs as number[], ...props.lines.map((l) => l.values as (number | null)[])],
          el,
        ),
    );
  }, [props.xs, props.lines]);
  return <div class="chart" ref={box} role="img" aria-label={props.label} data-points={props.xs.length} />;
}

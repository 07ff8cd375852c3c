/**
 * A price history as a step chart (uPlot, drawn on a canvas): each price holds until the next entry;
 * stretches out of stock are shaded. Colours come from the page's CSS custom properties, so the chart
 * follows light and dark; its size follows its box (ResizeObserver). A table beside it carries the
 * same figures for screen readers.
 */
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "preact/hooks";
import { money, PER_T } from "./format.ts";

export interface StepPoint {
  /** Milliseconds since the epoch. */
  t: number;
  price: number;
  inStock: boolean;
}

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

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
    const make = () =>
      new uPlot(
        {
          width: Math.max(280, el.clientWidth),
          height: 260,
          tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
          legend: { show: false },
          cursor: { y: false },
          scales: { x: { time: true } },
          axes: [
            { stroke: css("--muted"), grid: { stroke: css("--grid") }, ticks: { stroke: css("--grid") } },
            { stroke: css("--muted"), grid: { stroke: css("--grid") }, ticks: { stroke: css("--grid") }, size: 64, values: (_, vals) => vals.map((v) => `${v}`), label: props.yLabel },
          ],
          series: [{}, { label: props.yLabel, stroke: css("--accent"), width: 2, paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false }, value: (_, v) => (v == null ? "" : `${money(v)} ${PER_T}`) }],
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
      );
    let plot = make();
    let frame = 0;
    const resize = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: 260 }));
    });
    resize.observe(el);
    const scheme = matchMedia("(prefers-color-scheme: dark)");
    const redraw = () => {
      plot.destroy();
      plot = make();
    };
    scheme.addEventListener("change", redraw);
    return () => {
      resize.disconnect();
      scheme.removeEventListener("change", redraw);
      cancelAnimationFrame(frame);
      plot.destroy();
    };
  }, [props.points, props.to]);
  return <div class="chart" ref={box} role="img" aria-label={props.label} data-points={props.points.length} />;
}

import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { day, percent } from '../format.js';
import { html } from '../html.js';

export interface ChartSeries {
  label: string;
  /** One value per x, null where the series has no figure (drawn as a gap). */
  values: Array<number | null>;
}

/** Colours told apart by most colour-blind readers (Okabe–Ito), and a dash pattern each as well. */
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const DASHES: number[][] = [[], [8, 4], [2, 3], [10, 3, 2, 3]];
const HEIGHT = 240;

/**
 * A line chart of shares over time (uPlot): x are run times, each series one engine. The same figures are in a table
 * under it, for screen readers and for copying; `data-points` says how many times the chart plots.
 */
export function LineChart({ title, xs, series }: { title: string; xs: string[]; series: ChartSeries[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const seconds = xs.map((x) => Date.parse(x) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 200),
        height: HEIGHT,
        scales: { x: { time: true }, y: { range: [0, 1] } },
        axes: [{}, { values: (_u, ticks) => ticks.map((t) => percent(t)), size: 50 }],
        series: [
          { label: 'Run' },
          ...series.map((s, i) => ({
            label: s.label,
            stroke: COLOURS[i % COLOURS.length],
            width: 2,
            dash: DASHES[i % DASHES.length] ?? [],
            points: { show: true, size: 6 },
            value: (_u: uPlot, v: number | null) => percent(v, 1),
          })),
        ],
      },
      [seconds, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [xs, series]);

  const summary = `${title}: ${series.length} ${series.length === 1 ? 'line' : 'lines'} over ${xs.length} runs`;
  return html`<figure class="chart" data-points=${xs.length} data-series=${series.length}>
    <figcaption>${title}</figcaption>
    <div class="chart-box" ref=${box} role="img" aria-label=${summary}></div>
    <details class="chart-figures">
      <summary>Figures of this chart</summary>
      <div class="table-wrap">
        <table>
          <thead>
            <tr><th scope="col">Run</th>${series.map((s) => html`<th scope="col">${s.label}</th>`)}</tr>
          </thead>
          <tbody>
            ${xs.map(
              (x, i) => html`<tr>
                <th scope="row">${day(x)}</th>
                ${series.map((s) => html`<td>${percent(s.values[i], 1)}</td>`)}
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>
  </figure>`;
}

import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { day, percent } from '../format.js';
import { html } from '../html.js';

export interface ChartSeries {
  label: string;
  /** One value per x, null where the series has no figure (drawn as a gap). */
  values: Array<number | null>;
  /** The 95% interval of each value (docs/analysis.md §6.6), drawn as a band around the line; null where none. */
  low?: Array<number | null>;
  high?: Array<number | null>;
}

/** A colour of `COLOURS` at about 13% opacity, for a band under its line. */
const bandFill = (colour: string) => `${colour}22`;

/** Colours told apart by most colour-blind readers (Okabe–Ito), and a dash pattern each as well. */
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const DASHES: number[][] = [[], [8, 4], [2, 3], [10, 3, 2, 3]];
const HEIGHT = 240;

/**
 * A line chart of shares over time (uPlot): x are run times, each series one engine, with its 95% interval as a band
 * of the line's colour. The same figures are in a table under it, for screen readers and for copying;
 * `data-points` says how many times the chart plots, `data-bands` how many bands it draws.
 */
export function LineChart({ title, xs, series }: { title: string; xs: string[]; series: ChartSeries[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const seconds = xs.map((x) => Date.parse(x) / 1000);
    // Each band is two more series (its high and low edges, no line, no legend entry) filled between.
    const banded = series.flatMap((s, i) => (s.low && s.high ? [{ i, low: s.low, high: s.high }] : []));
    const edge = (label: string) => ({
      label,
      class: 'band-edge',
      stroke: 'transparent',
      width: 0,
      points: { show: false },
      value: (_u: uPlot, v: number | null) => percent(v, 1),
    });
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
          ...banded.flatMap((b) => [edge(`${series[b.i]?.label} high`), edge(`${series[b.i]?.label} low`)]),
        ],
        bands: banded.map((b, j) => ({
          series: [series.length + 1 + 2 * j, series.length + 2 + 2 * j] as [number, number],
          fill: bandFill(COLOURS[b.i % COLOURS.length] ?? '#000000'),
        })),
      },
      [seconds, ...series.map((s) => s.values), ...banded.flatMap((b) => [b.high, b.low])] as uPlot.AlignedData,
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
  const bands = series.filter((s) => s.low && s.high).length;
  return html`<figure class="chart" data-points=${xs.length} data-series=${series.length} data-bands=${bands}>
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
                ${series.map((s) => html`<td>${percent(s.values[i], 1)}${interval(s.low?.[i], s.high?.[i])}</td>`)}
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>
  </figure>`;
}

/** A value's interval in the figures table: " (41.0–77.0%)", or nothing where it has none. */
function interval(low: number | null | undefined, high: number | null | undefined) {
  if (low === null || low === undefined || high === null || high === undefined) return null;
  return html` <span class="ci" data-low=${low} data-high=${high}
    >(${percent(low, 1).replace('%', '')}–${percent(high, 1)})</span
  >`;
}

import type { MonitorSignal } from '../../../../packages/client/src/types.js';
import { Head, Section, TableWrap } from '../components/bits.js';
import { day, percent } from '../format.js';
import { html } from '../html.js';

const COLUMNS = ['Figure', 'Brand', 'Engine', 'Change', '95% interval', 'q', 'Seen', 'Prompts that moved'];
const FIGURES: Record<string, string> = {
  mentionRate: 'Mention rate',
  shareOfVoice: 'Share of voice',
  citationShare: 'Citation share',
  avgFirstMentionPosition: 'Position',
};

/** A figure's value as it reads: a share as a percentage, a position as a rank. */
function value(figure: string | undefined, x: number | undefined): string {
  if (x === undefined) return '—';
  return figure === 'avgFirstMentionPosition' ? x.toFixed(2) : percent(x, 1);
}

/**
 * A monitor's signals (docs/analysis.md §6.7): the changes of its figures that held against their baseline, newest
 * first, each with the figure's move, its interval, the test's adjusted p-value, when it was first and last seen,
 * and the prompts that moved most. Figures that only moved within their noise are not listed.
 */
export function Signals({ signals, country }: { signals: MonitorSignal[]; country: string | null }) {
  const shown = signals.filter((s) => country === null || s.country === country);
  return html`<${Section} title="Signals" id="signals-title">
    ${
      shown.length === 0
        ? html`<p class="muted signals-none">
            No change held against its baseline${country ? ` in ${country}` : ''}: every figure moved within its noise
            (each run is tested against its last seven, with the false discovery rate at 5%).
          </p>`
        : html`<${TableWrap} label="Signals">
            <table class="signals">
              <${Head} cols=${COLUMNS} />
              <tbody>
                ${shown.map(
                  (
                    s,
                  ) => html`<tr class=${`signal signal-${s.direction}`} data-engine=${s.engine} data-figure=${s.figure}>
                    <td>${FIGURES[s.figure ?? ''] ?? s.figure}</td>
                    <td>${s.brand}</td>
                    <td>${s.engine}${s.country ? html` <span class="muted">${s.country}</span>` : null}</td>
                    <td>${value(s.figure, s.before)} → <strong>${value(s.figure, s.after)}</strong>
                      ${s.direction === 'up' ? '▲' : '▼'}</td>
                    <td>${value(s.figure, s.interval?.low)}–${value(s.figure, s.interval?.high)}</td>
                    <td>${s.qValue?.toPrecision(2)}</td>
                    <td>${day(s.firstSeen?.slotAt ?? '')}${
                      (s.runs ?? 1) > 1 ? html` <span class="muted">to ${day(s.lastSeen?.slotAt ?? '')}</span>` : null
                    }</td>
                    <td>${(s.prompts ?? []).map(
                      (p) =>
                        html`<div class="mover">${p.prompt} <span class="muted">${percent(p.before)} → ${percent(
                          p.after,
                        )}</span></div>`,
                    )}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          <//>`
    }
  <//>`;
}

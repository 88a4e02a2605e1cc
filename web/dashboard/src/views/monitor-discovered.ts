import { useState } from 'preact/hooks';
import type { MonitorDiscovered } from '../../../../packages/client/src/types.js';
import { Head, Section, TableWrap } from '../components/bits.js';
import { percent } from '../format.js';
import { html } from '../html.js';

type Name = NonNullable<MonitorDiscovered['names']>[number];

/**
 * The names the monitor's answers name that it does not track (docs/analysis.md §6.8), most named first, each with
 * a button that tracks it as a competitor from the next run. Found without a model: suggestions, said so.
 */
export function DiscoveredNames({
  found,
  onTrack,
}: {
  found: MonitorDiscovered;
  onTrack: (name: string) => Promise<void>;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const names = (found.names ?? []).slice(0, 10);
  const track = async (n: Name) => {
    setBusy(n.key ?? null);
    try {
      await onTrack(n.name ?? '');
    } finally {
      setBusy(null);
    }
  };
  return html`<${Section} title="Named but not tracked" id="discovered-title">
    ${
      names.length === 0
        ? html`<p class="muted discovered-none">The answers of the latest runs name no brand beyond those tracked.</p>`
        : html`<p class="muted">
              Found in ${found.answers} answers of the latest ${found.runs} runs, without a model: names to check
              before tracking them.
            </p>
            <${TableWrap} label="Named but not tracked">
              <table class="discovered">
                <${Head} cols=${['Name', 'Answers', 'Share', 'Position', 'Engines', '']} />
                <tbody>
                  ${names.map(
                    (n) => html`<tr data-key=${n.key}>
                      <td>${n.name}</td>
                      <td>${n.answers}</td>
                      <td>${percent(n.share, 1)}</td>
                      <td>${n.avgPosition?.toFixed(1)}</td>
                      <td>${(n.engines ?? []).join(', ')}</td>
                      <td>
                        <button type="button" class="secondary track" disabled=${busy !== null}
                          onClick=${() => track(n)}>Track</button>
                      </td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            <//>`
    }
  <//>`;
}

import type { ExtendedAnalysis } from '../../../../packages/client/src/types.js';
import { Head, TableWrap } from '../components/bits.js';
import { percent } from '../format.js';
import { html } from '../html.js';

/** Component names as a reader says them. */
const COMPONENTS: Record<string, string> = {
  questionRequirements: 'Question requirements',
  brandDecisions: 'Brand decisions',
  sourceMetadata: 'Source metadata',
};

const COVERAGE: Record<string, string> = {
  addressed: 'addressed',
  partial: 'partly addressed',
  not_addressed: 'not addressed',
};

/** Shares by class, largest first, as "type 42.0%" items (`unattributed` last: what no source explains). */
function Shares({ label, shares }: { label: string; shares: Record<string, number> }) {
  const entries = Object.entries(shares).sort(
    ([a, x], [b, y]) => Number(a === 'unattributed') - Number(b === 'unattributed') || y - x,
  );
  if (entries.length === 0) return null;
  return html`<p class="shares" data-shares=${label}>
    <strong>${label}:</strong>
    ${entries.map(([k, v], i) => html`${i ? ' · ' : ' '}<span>${k.replaceAll('_', ' ')} ${percent(v, 1)}</span>`)}
  </p>`;
}

/**
 * The extended analysis of a source-influence result (asked for with `analysis.version = 1`): the state of each of
 * its three components with the reason of any that is not ok, what the question asks for and whether the answer
 * addresses it, each brand's mentions and the answer's decision on it, and the answer's shares by source type.
 */
export function ExtendedAnalysisView({ a }: { a: ExtendedAnalysis }) {
  const reqs = a.questionRequirements.items;
  const brands = a.brandDecisions.entities;
  const others = a.brandDecisions.otherBrands;
  return html`<section class="card extended" aria-labelledby="extended-title" data-status=${a.status}>
    <h2 id="extended-title">Extended analysis</h2>
    <p class="extended-status">
      Status <strong>${a.status}</strong>:
      ${Object.entries(a.components).map(
        ([k, v], i) => html`${i ? ' · ' : ' '}<span data-component=${k}>
            ${COMPONENTS[k] ?? k} <em>${v.replaceAll('_', ' ')}</em>
          </span>`,
      )}
    </p>
    ${
      a.errors.length
        ? html`<ul class="extended-errors">
            ${a.errors.map(
              (e) => html`<li><code>${e.code}</code> ${COMPONENTS[e.component] ?? e.component}: ${e.message}</li>`,
            )}
          </ul>`
        : null
    }
    <h3>What the question asks for</h3>
    ${
      reqs.length === 0
        ? html`<p class="muted">No requirement found in the prompt.</p>`
        : html`<p class="muted">Coverage ${percent(a.questionRequirements.coverageRate)}</p>
            <${TableWrap} label="Question requirements">
              <table class="requirements">
                <${Head} cols=${['Requirement', 'Kind', 'Coverage']} />
                <tbody>
                  ${reqs.map(
                    (q) => html`<tr>
                      <td>${q.text}${q.mandatory ? html` <span class="badge">must</span>` : null}</td>
                      <td>${q.type.replaceAll('_', ' ')}</td>
                      <td>${COVERAGE[q.coverage] ?? q.coverage}</td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            <//>`
    }
    <h3>Brands in the answer</h3>
    ${
      brands.length === 0
        ? html`<p class="muted">No brand was given to follow.</p>`
        : html`<${TableWrap} label="Brand decisions">
            <table class="brand-decisions">
              <${Head} cols=${['Brand', 'Role', 'Mentions', 'Order', 'Share of voice', 'Decision']} />
              <tbody>
                ${brands.map(
                  (b) => html`<tr data-entity=${b.entityId}>
                    <td>${b.name}${b.topPick ? html` <span class="badge">top pick</span>` : null}</td>
                    <td>${b.role}</td>
                    <td>${b.mentionCount}</td>
                    <td>${b.mentionOrder ?? '—'}</td>
                    <td>${percent(b.shareOfVoice, 1)}</td>
                    <td>${b.decision ?? 'not judged'}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          <//>`
    }
    ${
      others.length
        ? html`<p class="muted">
            Other brands named: ${others.map((o) => `${o.name} (${o.mentionCount})`).join(', ')}
          </p>`
        : null
    }
    <${Shares} label="By source type" shares=${a.sourceTypeShares} />
    <${Shares} label="By media class" shares=${a.mediaClassShares} />
  </section>`;
}

import type { PromptResearchResult, SourceInfluenceResult } from '../../../../packages/client/src/types.js';
import { SourceLink } from '../components/answer.js';
import { Head, SimulatedBadge, TableWrap } from '../components/bits.js';
import { count, percent } from '../format.js';
import { html } from '../html.js';
import { ExtendedAnalysisView } from './extended-analysis.js';

function Warnings({ warnings }: { warnings: ReadonlyArray<{ code: string; message: string }> }) {
  if (warnings.length === 0) return null;
  return html`<ul class="warnings">
    ${warnings.map((w) => html`<li>${w.code}: ${w.message}</li>`)}
  </ul>`;
}

/** A demand tier (1 to 5) as a word and five pips; the word carries it for screen readers. */
function Tier({ tier }: { tier: number | null | undefined }) {
  if (!tier) return html`<span class="muted">—</span>`;
  return html`<span class="tier" title=${`demand tier ${tier} of 5`}>
    <span class="pips" aria-hidden="true">
      ${[1, 2, 3, 4, 5].map((i) => html`<span class=${i <= tier ? 'pip on' : 'pip'}></span>`)}
    </span>
    <span>Tier ${tier}</span>
  </span>`;
}

/** Prompt research: the ranked questions with their demand tier, and the monitor set it proposes. */
export function PromptResearchView({ r }: { r: PromptResearchResult }) {
  const questions = r.questions;
  const set = r.monitorSet.items;
  const engines = r.monitorSet.engines;
  return html`<div class="analysis">
    <p>
      Questions people ask about <strong>${r.input.seed}</strong>
      ${html` in ${r.input.country}`}, ranked by demand
      ${html` (<span class="muted">basis: ${r.demandBasis}</span>)`}.
      <${SimulatedBadge} simulated=${r.simulated} />
    </p>
    <${Warnings} warnings=${r.warnings} />
    <section class="card" aria-labelledby="questions-title">
      <h2 id="questions-title">Ranked questions <span class="muted">(${questions.length})</span></h2>
      <${TableWrap} label="Ranked questions">
        <table class="questions">
          <${Head} cols=${['#', 'Question', 'Intent', 'Demand', 'Score']} />
          <tbody>
            ${questions.map(
              (q) => html`<tr>
                <td>${q.rank}</td><td>${q.text}</td><td>${q.intent}</td>
                <td><${Tier} tier=${q.demand.tier} /></td><td>${q.demand.score}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      <//>
    </section>
    <section class="card" aria-labelledby="set-title">
      <h2 id="set-title">
        Monitor set <span class="muted">(${set.length} prompts${engines ? ` × ${engines.join(', ')}` : ''})</span>
      </h2>
      <ol>${set.map((i) => html`<li>${i.text}</li>`)}</ol>
    </section>
  </div>`;
}

const LABEL_ORDER: Record<string, number> = { supported: 0, contradicted: 1, partial: 2 };

/** Source influence: how much each cited source shaped the answer, and each claim with the sources that support it. */
export function SourceInfluenceView({ r }: { r: SourceInfluenceResult }) {
  const sources = [...r.sources].sort((a, b) => a.influence.rank - b.influence.rank);
  const byId = new Map(sources.map((s) => [s.sourceId, s]));
  const name = (id: string) => {
    const s = byId.get(id);
    return s ? `${id} · ${s.registrableDomain}` : id;
  };
  const s = r.summary;
  return html`<div class="analysis">
    <p>
      ${count(s.claims)} claims, ${count(s.sources)} sources;
      ${`${count(s.miscitedClaims)} miscited, ${count(s.contradictedClaims)} contradicted;`}
      citation coverage ${percent(s.citationCoverage)}
      ${s.judge ? html` <span class="muted">(judge: ${s.judge})</span>` : null}
      <${SimulatedBadge} simulated=${r.simulated} />
    </p>
    <${Warnings} warnings=${r.warnings} />
    <section class="card" aria-labelledby="influence-title">
      <h2 id="influence-title">Sources by influence</h2>
      <${TableWrap} label="Sources by influence">
        <table>
          <${Head} cols=${['Rank', 'Source', 'Influence', 'Share', 'Cited', 'Fetched']} />
          <tbody>
            ${sources.map(
              (x) => html`<tr>
                <td>${x.influence.rank}</td>
                <td><${SourceLink} url=${x.url} text=${x.title || x.url} />
                  <div class="muted">${x.sourceId} · ${x.registrableDomain}</div></td>
                <td>${x.influence.score} <span class="muted">${x.influence.level}</span>
                  ${
                    x.influence.levelNote
                      ? html`<div class="muted small level-note">${x.influence.levelNote}</div>`
                      : null
                  }</td>
                <td>${percent(x.influence.share)}</td>
                <td>${x.citations.count}×</td>
                <td>${x.fetch.status}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      <//>
    </section>
    <section class="card" aria-labelledby="claims-title">
      <h2 id="claims-title">Claims and their sources</h2>
      <ol class="claims">
        ${r.claims.map((c) => {
          const backing = c.sources
            .filter((x) => x.label in LABEL_ORDER)
            .sort((a, b) => (LABEL_ORDER[a.label] ?? 9) - (LABEL_ORDER[b.label] ?? 9) || b.score - a.score);
          return html`<li class="claim">
            <p class="claim-text">${c.text}</p>
            <p class="muted">
              cites ${c.cites.length ? c.cites.join(', ') : 'nothing'}
              ${c.miscited ? html` · <span class="badge warn">miscited</span>` : null}
              ${c.supportedBy.length ? ` · supported by ${c.supportedBy.join(', ')}` : ' · no source supports it fully'}
              ${
                c.contradictedBy.length
                  ? html` · <span class="badge warn">contradicted by ${c.contradictedBy.join(', ')}</span>`
                  : null
              }
            </p>
            ${
              backing.length
                ? html`<ul class="evidence">
                    ${backing.map(
                      (x) => html`<li>
                        <span class=${`badge label-${x.label}`}>${x.label}</span>
                        ${name(x.sourceId)}${x.cited ? ' (cited)' : ''}
                        ${x.evidence ? html`<blockquote>${x.evidence}</blockquote>` : null}
                      </li>`,
                    )}
                  </ul>`
                : null
            }
          </li>`;
        })}
      </ol>
    </section>
    ${r.analysis ? html`<${ExtendedAnalysisView} a=${r.analysis} />` : null}
  </div>`;
}

import { SourceLink } from '../components/answer.js';
import { Head, SimulatedBadge, TableWrap } from '../components/bits.js';
import { count, percent } from '../format.js';
import { html } from '../html.js';
import { type ExtendedAnalysis, ExtendedAnalysisView } from './extended-analysis.js';

/** The members of the analysis results the views read (docs/analysis.md §2.12, §3.13); the rest is in the raw JSON. */
interface Question {
  id: string;
  rank: number;
  text: string;
  intent?: string;
  demand?: { score?: number | null; tier?: number | null; tierBasis?: string; monthlyVolume?: number | null };
}
interface MonitorItem {
  order: number;
  questionId: string;
  text: string;
}
export interface PromptResearchResult {
  simulated?: boolean;
  methodVersion?: string;
  input?: { seed?: string; country?: string; language?: string; brand?: string | null };
  demandBasis?: string;
  questions?: Question[];
  monitorSet?: { items?: MonitorItem[]; engines?: string[]; plannedTasks?: number };
  warnings?: Array<{ code?: string; message?: string } | string>;
}

interface InfluenceSource {
  sourceId: string;
  url: string;
  title?: string | null;
  registrableDomain?: string;
  fetch?: { status?: string };
  influence?: { score?: number; rank?: number; level?: string; levelNote?: string | null; share?: number };
  citations?: { count?: number };
}
interface ClaimSource {
  sourceId: string;
  cited: boolean;
  label: string;
  score?: number;
  evidence?: string | null;
}
interface Claim {
  claimId: string;
  text: string;
  trivial?: boolean;
  cites: string[];
  miscited?: boolean;
  supportedBy: string[];
  contradictedBy: string[];
  sources: ClaimSource[];
}
export interface SourceInfluenceResult {
  simulated?: boolean;
  methodVersion?: string;
  summary?: {
    sources?: number;
    claims?: number;
    miscitedClaims?: number;
    contradictedClaims?: number;
    citationCoverage?: number;
    groundedShare?: number;
    judge?: string;
  };
  sources?: InfluenceSource[];
  claims?: Claim[];
  warnings?: Array<{ code?: string; message?: string } | string>;
  /** The extended analysis, when the request asked for it (`analysis.version = 1`). */
  analysis?: ExtendedAnalysis;
}

function Warnings({ warnings }: { warnings: PromptResearchResult['warnings'] }) {
  if (!warnings || warnings.length === 0) return null;
  return html`<ul class="warnings">
    ${warnings.map((w) => html`<li>${typeof w === 'string' ? w : [w.code, w.message].filter(Boolean).join(': ')}</li>`)}
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
  const questions = r.questions ?? [];
  const set = r.monitorSet?.items ?? [];
  const engines = r.monitorSet?.engines;
  return html`<div class="analysis">
    <p>
      Questions people ask about <strong>${r.input?.seed ?? '?'}</strong>
      ${r.input?.country ? html` in ${r.input.country}` : null}, ranked by demand
      ${r.demandBasis ? html` (<span class="muted">basis: ${r.demandBasis}</span>)` : null}.
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
                <td>${q.rank}</td><td>${q.text}</td><td>${q.intent ?? '—'}</td>
                <td><${Tier} tier=${q.demand?.tier} /></td><td>${q.demand?.score ?? '—'}</td>
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
  const sources = [...(r.sources ?? [])].sort((a, b) => (a.influence?.rank ?? 99) - (b.influence?.rank ?? 99));
  const byId = new Map(sources.map((s) => [s.sourceId, s]));
  const name = (id: string) => {
    const s = byId.get(id);
    return s ? `${id} · ${s.registrableDomain ?? s.url}` : id;
  };
  const s = r.summary ?? {};
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
                <td>${x.influence?.rank ?? '—'}</td>
                <td><${SourceLink} url=${x.url} text=${x.title || x.url} />
                  <div class="muted">${x.sourceId} · ${x.registrableDomain ?? ''}</div></td>
                <td>${x.influence?.score ?? '—'} <span class="muted">${x.influence?.level ?? ''}</span>
                  ${
                    x.influence?.levelNote
                      ? html`<div class="muted small level-note">${x.influence.levelNote}</div>`
                      : null
                  }</td>
                <td>${percent(x.influence?.share)}</td>
                <td>${x.citations?.count ?? 0}×</td>
                <td>${x.fetch?.status ?? '—'}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      <//>
    </section>
    <section class="card" aria-labelledby="claims-title">
      <h2 id="claims-title">Claims and their sources</h2>
      <ol class="claims">
        ${(r.claims ?? []).map((c) => {
          const backing = c.sources
            .filter((x) => x.label in LABEL_ORDER)
            .sort(
              (a, b) => (LABEL_ORDER[a.label] ?? 9) - (LABEL_ORDER[b.label] ?? 9) || (b.score ?? 0) - (a.score ?? 0),
            );
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

import { norm } from '../text/norm.js';
import type { RequestResult } from './collector.js';
import type { Appearance } from './demand.js';
import { type TermFilter, isNavigational, isQuestionLike, passesScript } from './filters.js';
import { stripTags } from './suggest-parsers.js';

/** Turns raw provider answers into filtered candidates with their appearances (§3.4, §3.5). */

export interface FilterStats {
  suggestions: number;
  navigationalDropped: number;
  scriptDropped: number;
  nonQuestionDropped: number;
  excludedByBrand: number;
  excludedByTerms: number;
}

export interface Candidates {
  /** Question-like candidates that passed every filter: text → appearances. */
  questions: Map<string, Appearance[]>;
  /** Non-question suggestions that passed navigation, script, brand and exclude filters (back-fill). */
  backfill: Map<string, Appearance[]>;
  stats: FilterStats;
}

export interface FilterContext {
  country: 'KR' | 'US';
  seed: string;
  terms: TermFilter;
}

function push(m: Map<string, Appearance[]>, text: string, a: Appearance): void {
  const list = m.get(text);
  if (list) list.push(a);
  else m.set(text, [a]);
}

export function filterCandidates(results: readonly RequestResult[], ctx: FilterContext): Candidates {
  const out: Candidates = {
    questions: new Map(),
    backfill: new Map(),
    stats: {
      suggestions: 0,
      navigationalDropped: 0,
      scriptDropped: 0,
      nonQuestionDropped: 0,
      excludedByBrand: 0,
      excludedByTerms: 0,
    },
  };
  for (const r of results) {
    const requestText = norm(r.request.query).toLowerCase();
    const maxRelevance = Math.max(0, ...r.suggestions.map((s) => s.relevance ?? 0));
    r.suggestions.forEach((s, i) => {
      const text = norm(stripTags(s.text));
      if (text === '' || text.toLowerCase() === requestText) return; // the request itself is no suggestion
      if (s.type !== null && s.type !== 'QUERY' && s.type !== 'NAVIGATION') return; // entities, personal history
      out.stats.suggestions++;
      const app: Appearance = {
        provider: r.provider,
        requestId: r.requestId,
        cls: r.request.cls,
        rank: i + 1,
        relevanceShare: s.relevance !== null && maxRelevance > 0 ? s.relevance / maxRelevance : null,
      };
      if (isNavigational(text, s.type)) {
        out.stats.navigationalDropped++;
        return;
      }
      if (!passesScript(text, ctx.country, r.provider, ctx.seed)) {
        out.stats.scriptDropped++;
        return;
      }
      const question = isQuestionLike(text);
      if (!question) out.stats.nonQuestionDropped++;
      if (ctx.terms.hasBrand(text)) {
        if (question) out.stats.excludedByBrand++;
        return;
      }
      if (ctx.terms.hasExcluded(text)) {
        if (question) out.stats.excludedByTerms++;
        return;
      }
      push(question ? out.questions : out.backfill, text, app);
    });
  }
  return out;
}

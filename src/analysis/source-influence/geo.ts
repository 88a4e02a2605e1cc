import { containment } from '../text/similarity.js';
import { supports } from './judge/labels.js';
import { paperDecay, type UnitFacts } from './metrics.js';

/**
 * The GEO paper's impression metrics (Aggarwal et al., KDD 2024, section 2.2.1; docs/analysis.md#geo-impressions):
 *
 * - word count, eq. 2: Imp_wc(c, r) = Σ_{s ∈ S_c} |s| / Σ_{s ∈ S_r} |s|, a sentence citing k sources giving each 1/k;
 * - position-adjusted word count, eq. 3: Imp_pwc(c, r) = Σ_{s ∈ S_c} |s| · e^(−pos(s)/|S|) / Σ_{s ∈ S_r} |s|, with
 *   pos(s) the sentence's 0-based position and |S| the number of sentences of the response;
 * - both normalised so the citations of one response sum to 1 (the paper's normalisation);
 * - the subjective impression's seven facets are judged by a model in the paper; the ones a text measure can stand
 *   for are computed here as named proxies, and click likelihood (a reader's guess) is null.
 */
export interface SubjectiveProxies {
  /** IDF-weighted containment of the query in the sentences citing the source (null without a query). */
  relevance: number | null;
  /** Share of the words citing the source that the source supports (the answer relies on it). */
  influence: number;
  /** Share of the words citing the source that no other source supports. */
  uniqueness: number;
  /** e^(−pos/|S|) of the first sentence citing the source. */
  position: number;
  /** Sentences citing the source over all sentences. */
  count: number;
  /** Distinct content tokens of the sentences citing the source over those of the whole answer. */
  diversity: number;
}

export interface UnitTokens {
  tokenSet: ReadonlySet<string>;
}

/** Proxies for one source j; all zero (relevance null) for a source no sentence cites. */
export function subjectiveProxies(
  units: readonly UnitFacts[],
  tokens: readonly UnitTokens[],
  j: number,
  query: UnitTokens | null,
  idf: (t: string) => number,
): SubjectiveProxies {
  const citing = units.map((u, ui) => ({ u, ui })).filter(({ u }) => u.cited.has(j));
  const words = citing.reduce((a, { u }) => a + u.geoWords, 0);
  const backed = (pred: (u: UnitFacts) => boolean) =>
    words === 0 ? 0 : citing.filter(({ u }) => pred(u)).reduce((a, { u }) => a + u.geoWords, 0) / words;
  const supportOf = (u: UnitFacts, k: number) => u.alignment.judgements[k]?.label ?? 'unsupported';
  const citedTokens = new Set(citing.flatMap(({ ui }) => [...(tokens[ui]?.tokenSet ?? [])]));
  const allTokens = new Set(tokens.flatMap((t) => [...t.tokenSet]));
  const first = citing[0];
  return {
    relevance: query && citing.length > 0 ? containment(query.tokenSet, citedTokens, idf) : null,
    influence: backed((u) => supports(supportOf(u, j))),
    uniqueness: backed(
      (u) => supports(supportOf(u, j)) && !u.alignment.judgements.some((x, k) => k !== j && supports(x.label)),
    ),
    position: first ? paperDecay(first.u.index, units.length) : 0,
    count: units.length === 0 ? 0 : citing.length / units.length,
    diversity: allTokens.size === 0 ? 0 : citedTokens.size / allTokens.size,
  };
}

/**
 * The paper's subjective impression is the average of its facets, each normalised over the response's citations; the
 * same over the proxies that exist (relevance only with a query), so the figures of one answer sum to 1.
 */
export function subjectiveImpression(all: readonly SubjectiveProxies[]): number[] {
  const facets: Array<keyof SubjectiveProxies> = [
    'relevance',
    'influence',
    'uniqueness',
    'position',
    'count',
    'diversity',
  ];
  const used = facets.filter((f) => all.some((p) => (p[f] ?? 0) > 0));
  if (used.length === 0) return all.map(() => 0);
  return all.map((p) => {
    let sum = 0;
    for (const f of used) {
      const total = all.reduce((a, q) => a + (q[f] ?? 0), 0);
      sum += (p[f] ?? 0) / total;
    }
    return sum / used.length;
  });
}

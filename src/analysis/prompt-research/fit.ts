import type { Language } from '../text/norm.js';
import { sentences } from '../text/segment.js';
import { cosine, counts } from '../text/similarity.js';
import { tokenize } from '../text/tokens.js';

/** A candidate's fit and the description's words it shares (its basis), most telling first. */
export interface FitOf {
  /** 0–1, scaled by the pool's best; 0 when it shares nothing with the description. */
  score: number;
  /** The candidate's tokens (seed left out) that the description also has, by TF-IDF weight, at most 5. */
  terms: string[];
}

/**
 * Lexical fit of §3.10: TF-IDF cosine between a candidate and the brand description, with the
 * seed's tokens removed from both sides (every candidate shares them), idf over the candidate pool
 * plus the description sentences, and scaled by the best cosine of the pool. Null when no candidate
 * shares a word with the description: a fit of 0 for every question would read as "fits nothing"
 * when the measure has simply nothing to go on (the description speaks of other things than the
 * words people type around the seed), so the result says it has no basis instead.
 */
export function fitWithTerms(
  candidates: readonly string[],
  description: string,
  seed: string,
  lang: Language,
): FitOf[] | null {
  const seedTokens = new Set(tokenize(seed).tokens);
  const toks = (s: string) => tokenize(s).tokens.filter((t) => !seedTokens.has(t));
  const candTokens = candidates.map(toks);
  const descSentences = sentences(description, lang).map((s) => toks(s.text));
  const docs = [...candTokens, ...descSentences];
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  const idf = (t: string) => {
    const nt = df.get(t) ?? 0;
    return Math.log(1 + (n - nt + 0.5) / (nt + 0.5));
  };
  const vector = (tokens: readonly string[]) => {
    const v = new Map<string, number>();
    for (const [t, tf] of counts(tokens)) v.set(t, tf * idf(t));
    return v;
  };
  const desc = vector(descSentences.flat());
  const cos = candTokens.map((t) => cosine(vector(t), desc));
  const max = Math.max(0, ...cos);
  if (max === 0) return null;
  return cos.map((c, i) => ({
    score: c / max,
    terms: [...new Set(candTokens[i])]
      .filter((t) => desc.has(t))
      .sort((a, b) => (desc.get(b) ?? 0) - (desc.get(a) ?? 0) || (a < b ? -1 : 1))
      .slice(0, 5),
  }));
}

/** The fit scores alone (0 for every candidate when there is no basis). */
export function lexicalFit(candidates: readonly string[], description: string, seed: string, lang: Language): number[] {
  return fitWithTerms(candidates, description, seed, lang)?.map((f) => f.score) ?? candidates.map(() => 0);
}

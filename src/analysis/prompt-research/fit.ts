import type { Language } from '../text/norm.js';
import { sentences } from '../text/segment.js';
import { cosine, counts } from '../text/similarity.js';
import { tokenize } from '../text/tokens.js';

/**
 * Lexical fit of §3.10: TF-IDF cosine between a candidate and the brand description, with the
 * seed's tokens removed from both sides (every candidate shares them), idf over the candidate pool
 * plus the description sentences, and scaled by the best cosine of the pool.
 */
export function lexicalFit(candidates: readonly string[], description: string, seed: string, lang: Language): number[] {
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
  return cos.map((c) => (max > 0 ? c / max : 0));
}

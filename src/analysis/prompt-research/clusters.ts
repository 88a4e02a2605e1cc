import type { PromptResearchConfig } from '../config.js';
import { detectLanguage, norm } from '../text/norm.js';
import { jaccard } from '../text/similarity.js';
import { stemEnglish } from '../text/stemmer.js';
import { numbersOf, stripParticle } from '../text/tokens.js';
import { intentWords } from './questions.js';

/** Normalisation keys and near-duplicate merging of §3.6. */

export type KeyLanguage = 'ko' | 'en';

function candidateLanguage(text: string): KeyLanguage {
  return detectLanguage(text) === 'ko' ? 'ko' : 'en';
}

/**
 * `norm` (NFKC: decomposed Hangul is composed), lower case, punctuation and symbols removed; `ko`:
 * one trailing particle stripped per word (`사료를` = `사료`, §1.2) and no whitespace, so spacing
 * variants share a key; `en`: articles dropped, stemmed.
 */
export function clusterKey(text: string, lang: KeyLanguage = candidateLanguage(text)): string {
  const base = norm(text)
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (lang === 'ko')
    return base
      .split(' ')
      .map((w) => (/\p{Script=Hangul}/u.test(w) ? stripParticle(w) : w))
      .join('');
  return base
    .split(' ')
    .filter((w) => w !== '' && w !== 'a' && w !== 'an' && w !== 'the')
    .map(stemEnglish)
    .join(' ');
}

export function charGrams(s: string, n: number): Set<string> {
  const chars = [...s];
  const out = new Set<string>();
  if (chars.length < n) {
    if (chars.length > 0) out.add(chars.join(''));
    return out;
  }
  for (let i = 0; i + n <= chars.length; i++) out.add(chars.slice(i, i + n).join(''));
  return out;
}

interface Node {
  key: string;
  lang: KeyLanguage;
  tokens: Set<string>;
  grams: Set<string>;
  guard: string;
}

/**
 * Groups texts into clusters: equal keys always merge; otherwise equal stemmed token sets or
 * 3-gram Jaccard ≥ 0.85 (`en`), 2-gram Jaccard ≥ 0.80 (`ko`). Two texts with different numbers or
 * different intent words never merge (`2024` vs `2025`, `추천` vs `비교`). Returns groups of input
 * indexes, each sorted, groups ordered by their first member.
 */
export function clusterTexts(texts: readonly string[], cfg: PromptResearchConfig['dedup']): number[][] {
  const keyIndex = new Map<string, number>();
  const nodes: Node[] = [];
  const nodeOf: number[] = [];
  for (const t of texts) {
    const lang = candidateLanguage(t);
    const key = clusterKey(t, lang);
    let ni = keyIndex.get(key);
    if (ni === undefined) {
      ni = nodes.length;
      keyIndex.set(key, ni);
      const guard = `${[...new Set(numbersOf(t))].sort().join(',')}|${intentWords(norm(t).toLowerCase()).join(',')}`;
      nodes.push({ key, lang, tokens: new Set(key.split(' ')), grams: charGrams(key, lang === 'ko' ? 2 : 3), guard });
    }
    nodeOf.push(ni);
  }
  const parent = nodes.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  for (let a = 0; a < nodes.length; a++) {
    for (let b = a + 1; b < nodes.length; b++) {
      const x = nodes[a] as Node;
      const y = nodes[b] as Node;
      if (x.lang !== y.lang || x.guard !== y.guard) continue;
      const same =
        x.lang === 'ko'
          ? jaccard(x.grams, y.grams) >= cfg.jaccardKo
          : (x.tokens.size === y.tokens.size && [...x.tokens].every((t) => y.tokens.has(t))) ||
            jaccard(x.grams, y.grams) >= cfg.jaccardEn;
      if (same) {
        const ra = find(a);
        const rb = find(b);
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
    }
  }
  const groups = new Map<number, number[]>();
  nodeOf.forEach((ni, ti) => {
    const root = find(ni);
    const g = groups.get(root) ?? [];
    g.push(ti);
    groups.set(root, g);
  });
  return [...groups.values()].sort((g, h) => (g[0] ?? 0) - (h[0] ?? 0));
}

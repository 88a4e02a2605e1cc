import type { PromptResearchConfig } from '../config.js';
import { charGrams, clusterKey, clusterTexts } from './clusters.js';
import { evidenceOf, type Appearance, type Evidence } from './demand.js';
import type { PrefixClass } from './expansion.js';
import type { ProviderName } from './providers.js';

/** Clusters of candidates with their evidence and representative (§3.6, §3.7). */

export interface Cluster {
  query: string;
  variants: string[];
  key: string;
  grams: Set<string>;
  evidence: Evidence;
  backfill: boolean;
}

export interface EvidenceWeights {
  provider: ReadonlyMap<ProviderName, number>;
  prefix: Readonly<Record<PrefixClass, number>>;
  order: readonly ProviderName[];
}

function hasSpace(s: string): number {
  return /\s/.test(s) ? 1 : 0;
}

export function buildClusters(
  candidates: ReadonlyMap<string, Appearance[]>,
  weights: EvidenceWeights,
  cfg: PromptResearchConfig['dedup'],
  backfill: boolean,
): Cluster[] {
  const texts = [...candidates.keys()];
  const groups = clusterTexts(texts, cfg);
  return groups.map((members) => {
    const scored = members.map((i) => {
      const text = texts[i] as string;
      return {
        text,
        e: evidenceOf(candidates.get(text) ?? [], weights.provider, weights.prefix, weights.order).autocompleteScore,
      };
    });
    // Representative: highest evidence; ties → contains spaces (Korean readability) → shorter → lexicographic.
    scored.sort(
      (a, b) =>
        b.e - a.e ||
        hasSpace(b.text) - hasSpace(a.text) ||
        a.text.length - b.text.length ||
        (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
    );
    const rep = (scored[0] as { text: string }).text;
    const key = clusterKey(rep);
    const apps = members.flatMap((i) => candidates.get(texts[i] as string) ?? []);
    return {
      query: rep,
      variants: scored.slice(1).map((s) => s.text),
      key,
      grams: charGrams(key, 3),
      evidence: evidenceOf(apps, weights.provider, weights.prefix, weights.order),
      backfill,
    };
  });
}

/** Distinct suggestion texts ordered by their own evidence (depth-2 prefixes, §3.3). */
export function topByEvidence(
  candidates: ReadonlyArray<ReadonlyMap<string, Appearance[]>>,
  weights: EvidenceWeights,
  n: number,
): string[] {
  const scored: Array<{ text: string; e: number }> = [];
  for (const m of candidates)
    for (const [text, apps] of m)
      scored.push({ text, e: evidenceOf(apps, weights.provider, weights.prefix, weights.order).autocompleteScore });
  return scored
    .sort((a, b) => b.e - a.e || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .slice(0, n)
    .map((s) => s.text);
}

import { round4 } from '../text/norm.js';
import type { Cluster } from './clustering.js';
import type { Intent } from './questions.js';
import type { Demand, RankCriterion } from './result-types.js';

/** A cluster on its way to the result: its question text, intent, demand and fit. */
export interface Ranked {
  cluster: Cluster;
  text: string;
  origin: 'observed' | 'templated';
  intent: Intent;
  modifier: string | null;
  demand: Demand;
  fit: number | null;
  /** The description's words the question shares (its fit's basis). */
  fitTerms: string[];
}

/**
 * The ranking criteria of §3.11 in order, each named so the result can say which one put a question
 * above the next (`aboveNextBy`): question-like before back-fill, clusters with a volume (actual or
 * imputed) before those without (§3.7), demand score, the monthly volume itself (scores are rounded
 * logarithms, so close volumes share one), then the raw evidence E as shown (4 decimals),
 * number of providers, best rank, appearances, fit, shorter text, and the text in locale order.
 */
function criteria(lang: 'ko' | 'en'): ReadonlyArray<[RankCriterion, (a: Ranked, b: Ranked) => number]> {
  const e = (r: Ranked) => round4(r.cluster.evidence.autocompleteScore);
  return [
    ['backfill', (a, b) => Number(a.cluster.backfill) - Number(b.cluster.backfill)],
    ['hasVolume', (a, b) => Number(b.demand.monthlyVolume !== null) - Number(a.demand.monthlyVolume !== null)],
    ['score', (a, b) => b.demand.score - a.demand.score],
    ['monthlyVolume', (a, b) => (b.demand.monthlyVolume ?? 0) - (a.demand.monthlyVolume ?? 0)],
    ['evidence', (a, b) => e(b) - e(a)],
    ['providers', (a, b) => b.cluster.evidence.providers.length - a.cluster.evidence.providers.length],
    ['bestRank', (a, b) => a.cluster.evidence.bestRank - b.cluster.evidence.bestRank],
    ['appearances', (a, b) => b.cluster.evidence.appearances - a.cluster.evidence.appearances],
    ['fit', (a, b) => (b.fit ?? -1) - (a.fit ?? -1)],
    ['textLength', (a, b) => a.text.length - b.text.length],
    ['text', (a, b) => a.text.localeCompare(b.text, lang)],
  ];
}

export function ranking(lang: 'ko' | 'en') {
  const list = criteria(lang);
  return {
    compare: (a: Ranked, b: Ranked): number => {
      for (const [, cmp] of list) {
        const d = cmp(a, b);
        if (d !== 0) return d;
      }
      return 0;
    },
    /** The first criterion that orders `a` before `b`, or null when nothing tells them apart. */
    decidedBy: (a: Ranked, b: Ranked): RankCriterion | null => list.find(([, cmp]) => cmp(a, b) !== 0)?.[0] ?? null,
  };
}

import type { PromptResearchConfig } from '../config.js';
import { jaccard } from '../text/similarity.js';
import type { Intent } from './questions.js';

/**
 * Monitor set of §3.12: greedy maximal marginal relevance (Carbonell & Goldstein 1998) with an
 * intent-coverage bonus. A candidate too similar to one already chosen (≥ maxSim) is skipped unless
 * nothing else is left; ties go to the better pool rank.
 */
export interface PoolItem {
  /** Character 3-grams of the cluster key. */
  grams: Set<string>;
  intent: Intent;
  /** value(q) = D̂, or 0.6·D̂ + 0.4·F̂ with a brand description. */
  value: number;
}

export interface Pick {
  poolIndex: number;
  maxSimilarity: number;
}

export function selectMonitorSet(
  pool: readonly PoolItem[],
  size: number,
  cfg: PromptResearchConfig['monitor'],
): Pick[] {
  const chosen: Pick[] = [];
  const taken = new Set<number>();
  const intents = new Set<Intent>();
  type Scored = { i: number; score: number; sim: number };
  while (chosen.length < size && taken.size < pool.length) {
    let best: Scored | null = null;
    let fallback: Scored | null = null;
    for (let i = 0; i < pool.length; i++) {
      if (taken.has(i)) continue;
      const q = pool[i] as PoolItem;
      let sim = 0;
      for (const c of chosen) sim = Math.max(sim, jaccard(q.grams, (pool[c.poolIndex] as PoolItem).grams));
      const score = cfg.lambda * q.value - (1 - cfg.lambda) * sim + (intents.has(q.intent) ? 0 : cfg.intentBonus);
      // Strict comparison: on equal scores the better pool rank (lower index) stays.
      if (sim < cfg.maxSim) {
        if (!best || score > best.score) best = { i, score, sim };
      } else if (!fallback || score > fallback.score) fallback = { i, score, sim };
    }
    const pick = best ?? fallback;
    if (!pick) break;
    taken.add(pick.i);
    intents.add((pool[pick.i] as PoolItem).intent);
    chosen.push({ poolIndex: pick.i, maxSimilarity: pick.sim });
  }
  return chosen;
}

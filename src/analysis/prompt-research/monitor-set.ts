import type { PromptResearchConfig } from '../config.js';
import { round4 } from '../text/norm.js';
import { selectMonitorSet } from './monitor.js';
import { INTENT_ORDER } from './questions.js';
import type { Ranked } from './ranking.js';
import type { MonitorSet } from './result-types.js';
import type { PromptResearchInput } from './types.js';

/** The result's monitor set (§3.12): the prompts the MMR selection picks from the pool, with their figures. */
export function buildMonitorSet(
  input: PromptResearchInput,
  pool: readonly Ranked[],
  ids: ReadonlyMap<Ranked, string>,
  cfg: PromptResearchConfig,
): MonitorSet {
  const m = cfg.monitor;
  // Fit weighs in only where it has a basis (a description some question shares words with).
  const withFit = pool.some((r) => r.fit !== null);
  const value = (r: Ranked) =>
    withFit ? m.demandWeight * (r.demand.score / 100) + m.fitWeight * ((r.fit ?? 0) / 100) : r.demand.score / 100;
  const picks = selectMonitorSet(
    pool.map((r) => ({ grams: r.cluster.grams, intent: r.intent, value: value(r) })),
    input.monitorSize,
    m,
  );
  const items = picks.map((p, i) => {
    const r = pool[p.poolIndex] as Ranked;
    return {
      order: i + 1,
      questionId: ids.get(r) ?? null,
      text: r.text,
      intent: r.intent,
      demandScore: r.demand.score,
      fitScore: r.fit,
      value: round4(value(r)),
      maxSimilarityToSelected: round4(p.maxSimilarity),
    };
  });
  const coverage: MonitorSet['intentCoverage'] = {};
  for (const intent of INTENT_ORDER) {
    const n = items.filter((it) => it.intent === intent).length;
    if (n > 0) coverage[intent] = n;
  }
  return {
    size: items.length,
    requestedSize: input.monitorSize,
    engines: input.engines,
    plannedTasks: items.length * input.engines.length,
    method: 'mmr',
    parameters: {
      lambda: m.lambda,
      demandWeight: m.demandWeight,
      fitWeight: m.fitWeight,
      intentBonus: m.intentBonus,
      maxSimilarity: m.maxSim,
    },
    items,
    intentCoverage: coverage,
  };
}

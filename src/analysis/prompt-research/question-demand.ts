import type { PromptResearchConfig } from '../config.js';
import { round4 } from '../text/norm.js';
import type { Cluster } from './clustering.js';
import { fitImputation, imputedVolume, relativeDemand, volumeScore, volumeTier } from './demand.js';
import { kendallTauB, spearmanRho } from './rank-correlation.js';
import type { Demand, DemandCheck, PromptResearchResult } from './result-types.js';
import { hintKeyword, type KeywordVolume } from './searchad.js';

/**
 * Demand of §3.7: V = Σ over the cluster's distinct keys of their volumes; volume-basis scores and
 * absolute tiers where V is known or imputed, the autocomplete basis (relative tiers) elsewhere.
 */
export function demandOf(
  clusters: readonly Cluster[],
  volumes: ReadonlyMap<string, KeywordVolume> | null,
  volumeSource: string,
  cfg: PromptResearchConfig,
): { demands: Demand[]; actual: Array<{ v: number; low: boolean } | null> } {
  const actual = clusters.map((c) => {
    if (!volumes) return null;
    const found = [...new Set([c.query, ...c.variants].map(hintKeyword))]
      .map((k) => volumes.get(k))
      .filter((v): v is KeywordVolume => v !== undefined);
    return found.length === 0 ? null : { v: found.reduce((a, x) => a + x.volume, 0), low: found.every((x) => x.low) };
  });
  const fit = fitImputation(
    clusters.flatMap((c, i) => (actual[i] ? [{ e: c.evidence.autocompleteScore, v: actual[i].v }] : [])),
    cfg.impute.minPoints,
    cfg.impute.minR2,
  );
  const v = clusters.map((c, i) => actual[i]?.v ?? (fit ? imputedVolume(fit, c.evidence.autocompleteScore) : null));
  const vMax = Math.max(0, ...v.map((x) => x ?? 0));
  const eMax = Math.max(0, ...clusters.map((c) => c.evidence.autocompleteScore));
  const demands = clusters.map((c, i): Demand => {
    const vol = v[i];
    if (vol === null || vol === undefined) {
      const rel = relativeDemand(c.evidence.autocompleteScore, eMax);
      return {
        score: rel.score,
        scoreBasis: 'autocomplete_evidence',
        tier: rel.tier,
        tierBasis: 'relative',
        monthlyVolume: null,
        volumeSource: null,
        volumeIsEstimate: false,
        lowVolume: false,
      };
    }
    return {
      score: volumeScore(vol, vMax),
      scoreBasis: 'monthly_volume',
      tier: volumeTier(vol),
      tierBasis: 'absolute',
      monthlyVolume: Math.round(vol),
      // An imputed volume is the fit over this tool's figures, so it names the tool and says estimate.
      volumeSource,
      volumeIsEstimate: actual[i] === null,
      lowVolume: actual[i]?.low ?? false,
    };
  });
  return { demands, actual };
}

/** Fewer clusters with a keyword-tool volume than this and no rank correlation is reported. */
const DEMAND_CHECK_MIN = 8;

/**
 * How well autocomplete evidence E (the ranking used when no keyword tool is configured) orders the
 * clusters that have an actual keyword-tool volume (imputed ones excluded, they are a function of E):
 * Spearman's rho and Kendall's tau-b over those clusters, or null with fewer than 8 of them.
 */
export function demandCheck(
  clusters: readonly Cluster[],
  actual: ReadonlyArray<{ v: number } | null>,
  volumeSource: string,
  cfg: PromptResearchConfig,
): DemandCheck | null {
  const pairs = clusters.flatMap((c, i) => {
    const a = actual[i];
    return a ? [{ e: c.evidence.autocompleteScore, v: a.v }] : [];
  });
  if (pairs.length < Math.max(DEMAND_CHECK_MIN, cfg.impute.minPoints)) return null;
  const es = pairs.map((p) => p.e);
  const vs = pairs.map((p) => p.v);
  const rho = spearmanRho(es, vs);
  const tau = kendallTauB(es, vs);
  return {
    method: 'spearman',
    ranking: 'autocomplete_evidence',
    against: 'monthly_volume',
    volumeSource,
    n: pairs.length,
    rho: rho === null ? null : round4(rho),
    kendallTauB: tau === null ? null : round4(tau),
  };
}

/** `keyword_volume` when every returned question has an actual volume, `mixed` when some have one. */
export function demandBasis(demands: readonly Demand[]): PromptResearchResult['demandBasis'] {
  const withActual = demands.filter((d) => d.monthlyVolume !== null && !d.volumeIsEstimate).length;
  const withAny = demands.filter((d) => d.monthlyVolume !== null).length;
  if (demands.length > 0 && withActual === demands.length) return 'keyword_volume';
  return withAny > 0 ? 'mixed' : 'autocomplete';
}

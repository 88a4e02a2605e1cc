import type { PromptResearchConfig } from '../config.js';
import { round4 } from '../text/norm.js';
import { filterCandidates, type FilterStats } from './candidates.js';
import { buildClusters, type Cluster, type EvidenceWeights } from './clustering.js';
import type { RequestResult } from './collector.js';
import { fitImputation, imputedVolume, relativeDemand, volumeScore, volumeTier } from './demand.js';
import { TermFilter } from './filters.js';
import { type FitOf, fitWithTerms } from './fit.js';
import { uniqueByText } from './question-dedup.js';
import { kendallTauB, spearmanRho } from './rank-correlation.js';
import { selectMonitorSet } from './monitor.js';
import type { ProviderName } from './providers.js';
import { INTENT_ORDER, classifyIntent, questionText, type Intent } from './questions.js';
import { hintKeyword, type KeywordVolume } from './searchad.js';
import { PR_METHOD_VERSION, type PrWarning, type PromptResearchInput, type ProviderReport } from './types.js';

/**
 * From collected autocomplete answers to the §3.13 result: filters, clusters, demand, question
 * text, intent, fit, ranking and the monitor set. Pure: the same answers give the same result.
 */
export interface ResearchRun {
  input: PromptResearchInput;
  results: readonly RequestResult[];
  providers: readonly ProviderReport[];
  /** Providers with at least one answer, for weight renormalisation. */
  answered: readonly ProviderName[];
  providerOrder: readonly ProviderName[];
  requestsSent: number;
  autocompleteRequests: { google: number; naver: number; bing: number };
  cacheHits: number;
  warnings: PrWarning[];
  /** Some upstream this task used is the sandbox simulator (decided from configuration, simulation.ts). */
  simulated: boolean;
  /** The keyword tool's name in the result: `naver_searchad`, or `sandbox_searchad` for the simulator. */
  volumeSource: string;
  /** Naver Search Ad volumes by hint-keyword key, or null when no lookup ran. */
  volumes: ReadonlyMap<string, KeywordVolume> | null;
  volumeRequests: number;
  /**
   * The clock's year (UTC): a suggestion's earlier trailing year is asked as this one (questions.ts). Absent for
   * recorded suggestions replayed as they were (calibration), whose years stay as observed.
   */
  year?: number;
}

export function marketLanguage(country: 'KR' | 'US'): 'ko' | 'en' {
  return country === 'KR' ? 'ko' : 'en';
}

export function evidenceWeights(
  country: 'KR' | 'US',
  answered: readonly ProviderName[],
  order: readonly ProviderName[],
  cfg: PromptResearchConfig,
): EvidenceWeights {
  const base: Record<string, number> =
    country === 'KR' ? { ...cfg.weights.provider.KR } : { ...cfg.weights.provider.US };
  const total = answered.reduce((a, p) => a + (base[p] ?? 0), 0);
  const provider = new Map<ProviderName, number>();
  for (const p of answered) provider.set(p, total > 0 ? (base[p] ?? 0) / total : 0);
  return { provider, prefix: cfg.weights.prefix, order };
}

export function termFilter(input: PromptResearchInput): TermFilter {
  return new TermFilter(input.brand ? [input.brand, ...input.brandAliases] : [], input.exclude);
}

interface Demand {
  score: number;
  /** What the score is computed from: the monthly volume (actual or imputed) or autocomplete evidence E. */
  scoreBasis: 'monthly_volume' | 'autocomplete_evidence';
  tier: number;
  tierBasis: 'absolute' | 'relative';
  monthlyVolume: number | null;
  volumeSource: string | null;
  volumeIsEstimate: boolean;
  lowVolume: boolean;
}

interface Ranked {
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
export type RankCriterion =
  | 'backfill'
  | 'hasVolume'
  | 'score'
  | 'monthlyVolume'
  | 'evidence'
  | 'providers'
  | 'bestRank'
  | 'appearances'
  | 'fit'
  | 'textLength'
  | 'text';

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

function ranking(lang: 'ko' | 'en') {
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

export function assembleResearch(run: ResearchRun, cfg: PromptResearchConfig): Record<string, unknown> {
  const { input } = run;
  const lang = marketLanguage(input.country);
  const weights = evidenceWeights(input.country, run.answered, run.providerOrder, cfg);
  const candidates = filterCandidates(run.results, {
    country: input.country,
    seed: input.seed,
    terms: termFilter(input),
  });
  const questionClusters = buildClusters(candidates.questions, weights, cfg.dedup, false);
  const backfillClusters =
    questionClusters.length < input.limit ? buildClusters(candidates.backfill, weights, cfg.dedup, true) : [];
  const all = [...questionClusters, ...backfillClusters];
  const { demands, actual } = demandOf(all, run.volumes, run.volumeSource, cfg);
  const described = input.brandDescription !== null && input.brandDescription.trim() !== '';
  const fits: FitOf[] | null = described
    ? fitWithTerms(
        all.map((c) => c.query),
        input.brandDescription ?? '',
        input.seed,
        lang,
      )
    : null;
  const ranked: Ranked[] = all.map((cluster, i) => {
    const q = questionText(cluster.query, input.seed, run.year);
    const { intent, modifier } = classifyIntent(cluster.query);
    return {
      cluster,
      text: q.text,
      origin: q.origin,
      intent,
      modifier,
      demand: demands[i] as Demand,
      fit: fits ? Math.round(100 * (fits[i]?.score ?? 0)) : null,
      fitTerms: fits?.[i]?.terms ?? [],
    };
  });
  const order = ranking(lang);
  // Each text once, the better-ranked kept, the other's queries kept as its variants (question-dedup.ts).
  const unique = uniqueByText(
    [
      ...ranked.filter((r) => !r.cluster.backfill).sort(order.compare),
      ...ranked.filter((r) => r.cluster.backfill).sort(order.compare),
    ],
    (kept, dropped) => {
      kept.cluster.variants = [
        ...new Set([...kept.cluster.variants, dropped.cluster.query, ...dropped.cluster.variants]),
      ];
    },
  );
  const questionsRanked = unique.filter((r) => !r.cluster.backfill);
  const backfillRanked = unique.filter((r) => r.cluster.backfill);
  const returned = [...questionsRanked, ...backfillRanked].slice(0, input.limit);
  const ids = new Map(returned.map((r, i) => [r, `q${i + 1}`]));

  const questions = returned.map((r, i) => ({
    id: `q${i + 1}`,
    rank: i + 1,
    text: r.text,
    textOrigin: r.origin,
    query: r.cluster.query,
    variants: r.cluster.variants,
    intent: r.intent,
    modifier: r.modifier,
    demand: {
      ...r.demand,
      evidence: { ...r.cluster.evidence, autocompleteScore: round4(r.cluster.evidence.autocompleteScore) },
    },
    // With a description: the score and the words it rests on, or no score and `basis: "none"` when no question
    // shares a word with the description (§3.10).
    fit: !described
      ? null
      : r.fit === null
        ? { score: null, method: 'lexical', basis: 'none', terms: [] }
        : { score: r.fit, method: 'lexical', basis: 'description_terms', terms: r.fitTerms },
    aboveNextBy: i + 1 < returned.length ? order.decidedBy(r, returned[i + 1] as Ranked) : null,
  }));

  const monitorSet = buildMonitorSet(
    input,
    [...questionsRanked.slice(0, cfg.monitor.pool), ...backfillRanked.filter((r) => ids.has(r))],
    ids,
    cfg,
  );
  const warnings = [...run.warnings];
  if (described && fits === null)
    warnings.push({
      code: 'NO_FIT_BASIS',
      message:
        'No question shares a word with the brand description beyond the seed, so brand fit has no basis ' +
        '(fit.score null, fit.basis "none"); the monitor set is chosen on demand alone.',
    });
  if (candidates.stats.suggestions === 0)
    warnings.push({ code: 'NO_SUGGESTIONS', message: 'No provider returned any suggestion; no question is invented.' });
  if (questions.length < input.limit)
    warnings.push({
      code: 'FEWER_THAN_LIMIT',
      message: `Only ${questions.length} of ${input.limit} questions are available.`,
    });
  if (monitorSet.size < input.monitorSize)
    warnings.push({
      code: 'MONITOR_SET_SMALLER',
      message: `Only ${monitorSet.size} of ${input.monitorSize} monitor prompts are available.`,
    });

  return {
    resultVersion: 1,
    methodVersion: PR_METHOD_VERSION,
    simulated: run.simulated,
    input: {
      seed: input.seed,
      country: input.country,
      language: lang,
      limit: input.limit,
      exclude: input.exclude,
      brand: input.brand,
      brandAliases: input.brandAliases,
      hasBrandDescription: input.brandDescription !== null && input.brandDescription.trim() !== '',
      monitorSize: input.monitorSize,
      engines: input.engines,
    },
    demandBasis: demandBasis(returned.map((r) => r.demand)),
    demandCheck: demandCheck(all, actual, run.volumeSource, cfg),
    questions,
    monitorSet,
    stats: {
      requests: run.requestsSent,
      ...statsOf(candidates.stats),
      clusters: questionClusters.length,
      returned: questions.length,
    },
    providers: run.providers,
    warnings,
    usage: {
      autocompleteRequests: run.autocompleteRequests,
      volumeRequests: { naverSearchad: run.volumeRequests, googleAds: 0 },
      serpRequests: 0,
      cacheHits: run.cacheHits,
      modelTokens: { input: 0, output: 0, estimated: false, calls: [] },
    },
  };
}

function statsOf(s: FilterStats): FilterStats {
  return {
    suggestions: s.suggestions,
    navigationalDropped: s.navigationalDropped,
    scriptDropped: s.scriptDropped,
    nonQuestionDropped: s.nonQuestionDropped,
    excludedByBrand: s.excludedByBrand,
    excludedByTerms: s.excludedByTerms,
  };
}

function buildMonitorSet(
  input: PromptResearchInput,
  pool: readonly Ranked[],
  ids: ReadonlyMap<Ranked, string>,
  cfg: PromptResearchConfig,
) {
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
  const coverage: Record<string, number> = {};
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

/** Clusters the volume lookup covers: the top `pool` by autocomplete evidence (§3.4). */
export function volumeCandidates(
  run: Pick<ResearchRun, 'input' | 'results' | 'answered' | 'providerOrder'>,
  cfg: PromptResearchConfig,
): string[] {
  const weights = evidenceWeights(run.input.country, run.answered, run.providerOrder, cfg);
  const candidates = filterCandidates(run.results, {
    country: run.input.country,
    seed: run.input.seed,
    terms: termFilter(run.input),
  });
  const clusters = [
    ...buildClusters(candidates.questions, weights, cfg.dedup, false),
    ...buildClusters(candidates.backfill, weights, cfg.dedup, true),
  ];
  return clusters
    .sort(
      (a, b) =>
        b.evidence.autocompleteScore - a.evidence.autocompleteScore ||
        (a.query < b.query ? -1 : a.query > b.query ? 1 : 0),
    )
    .slice(0, cfg.searchad.pool)
    .map((c) => c.query);
}

/**
 * Demand of §3.7: V = Σ over the cluster's distinct keys of their volumes; volume-basis scores and
 * absolute tiers where V is known or imputed, the autocomplete basis (relative tiers) elsewhere.
 */
function demandOf(
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
function demandCheck(
  clusters: readonly Cluster[],
  actual: ReadonlyArray<{ v: number } | null>,
  volumeSource: string,
  cfg: PromptResearchConfig,
) {
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
function demandBasis(demands: readonly Demand[]): 'keyword_volume' | 'mixed' | 'autocomplete' {
  const withActual = demands.filter((d) => d.monthlyVolume !== null && !d.volumeIsEstimate).length;
  const withAny = demands.filter((d) => d.monthlyVolume !== null).length;
  if (demands.length > 0 && withActual === demands.length) return 'keyword_volume';
  return withAny > 0 ? 'mixed' : 'autocomplete';
}

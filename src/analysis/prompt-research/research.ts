import type { PromptResearchConfig } from '../config.js';
import { emptyModelTokens } from '../model/meter.js';
import { round4 } from '../text/norm.js';
import { filterCandidates, type FilterStats } from './candidates.js';
import { buildClusters, type EvidenceWeights } from './clustering.js';
import type { RequestResult } from './collector.js';
import { TermFilter } from './filters.js';
import { type FitOf, fitWithTerms } from './fit.js';
import { buildMonitorSet } from './monitor-set.js';
import type { ProviderName } from './providers.js';
import { demandBasis, demandCheck, demandOf } from './question-demand.js';
import { uniqueByText } from './question-dedup.js';
import { classifyIntent, questionText } from './questions.js';
import { ranking, type Ranked } from './ranking.js';
import type { Demand, PromptResearchResult, ResearchQuestion } from './result-types.js';
import type { KeywordVolume } from './searchad.js';
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

export function assembleResearch(run: ResearchRun, cfg: PromptResearchConfig): PromptResearchResult {
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

  const questions = returned.map(
    (r, i): ResearchQuestion => ({
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
    }),
  );

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
    providers: [...run.providers],
    warnings,
    usage: {
      autocompleteRequests: run.autocompleteRequests,
      volumeRequests: { naverSearchad: run.volumeRequests, googleAds: 0 },
      serpRequests: 0,
      cacheHits: run.cacheHits,
      modelTokens: emptyModelTokens(),
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

import { registrableDomain } from '../common/urls.js';
import type { ModelTokensReport } from '../model/meter.js';
import type { SourceInfluenceConfig } from '../config.js';
import { round4, roundPartition } from '../text/norm.js';
import { claimsOf, evidenceOf } from './claim-views.js';
import { finalHost, type AnalysisCore, type PreparedSource } from './core.js';
import { subjectiveImpression, subjectiveProxies } from './geo.js';
import { influenceLevel } from './influence-level.js';
import { judgeEvaluation } from './judge-evaluation.js';
import { JUDGE_WEIGHTS } from './judge/learned.js';
import { isMiscited } from './metrics.js';
import { featuresOf } from './passages.js';
import type {
  DomainInfluence,
  ExtendedAnalysis,
  InfluenceSource,
  JudgeBasis,
  SourceInfluenceResult,
  SubjectiveImpression,
} from './result-types.js';
import { warningsOf } from './result-warnings.js';
import { SI_METHOD_VERSION, type SourceFetchUsage, type SourceInfluenceInput, type Warning } from './types.js';

/** Assembles the §2.12 result from the analysis core and what the steps around it add (model, bill, `analysis`). */

const nullable = (x: number | null) => (x === null ? null : round4(x));

export function rankSources(core: AnalysisCore): Map<number, number> {
  const order = core.sources
    .map((s, j) => ({
      j,
      share: core.raw[j]?.share ?? 0,
      count: core.raw[j]?.count ?? 0,
      first: core.raw[j]?.firstCitedUnit ?? null,
      input: s.inputIndex,
    }))
    .sort(
      (a, b) =>
        b.share - a.share ||
        b.count - a.count ||
        (a.first ?? Number.MAX_SAFE_INTEGER) - (b.first ?? Number.MAX_SAFE_INTEGER) ||
        a.input - b.input,
    );
  return new Map(order.map((o, i) => [o.j, i + 1]));
}

export function fetchUsage(sources: readonly PreparedSource[]): SourceFetchUsage {
  const u: SourceFetchUsage = { attempted: 0, succeeded: 0, failed: 0, retries: 0, cacheHits: 0, bytes: 0 };
  for (const s of sources) {
    const r = s.record;
    if (!r || s.duplicateOf) continue;
    if (r.fromCache) u.cacheHits++;
    if (!r.attempted) continue;
    u.attempted++;
    if (r.page.status === 'ok') u.succeeded++;
    else u.failed++;
    u.retries += r.retries;
    u.bytes += r.page.bytes;
  }
  return u;
}

/** Influence shares of every source plus the unattributed rest, rounded so they sum to exactly 1. */
export function roundedShares(core: AnalysisCore): { shares: number[]; unattributed: number } {
  const raw = core.raw.map((r) => r.share);
  const rest = Math.max(0, 1 - raw.reduce((a, b) => a + b, 0));
  const parts = roundPartition([...raw, rest]);
  return { shares: parts.slice(0, raw.length), unattributed: parts[raw.length] ?? 1 };
}

export interface ResultOptions {
  alignmentMethod: 'lexical' | 'lexical+model_check';
  judge: JudgeBasis;
  /** The model that judged pairs (the simulator's name in the sandbox), null without one. */
  judgeModel: string | null;
  /** True when the pages (and model) came from the sandbox's simulators. */
  simulated: boolean;
  /** Warnings of steps outside the core (the model check). */
  warnings: readonly Warning[];
  /** The model's token report (empty without a model). */
  modelTokens: ModelTokensReport;
  credits: { held: number; charged: number };
  /** The extended analysis, when the request asked for it. */
  analysis: ExtendedAnalysis | null;
}

export function buildResult(
  core: AnalysisCore,
  input: SourceInfluenceInput,
  cfg: SourceInfluenceConfig,
  opts: ResultOptions,
): SourceInfluenceResult {
  const { shares, unattributed } = roundedShares(core);
  const attributedTotal = core.raw.reduce((a, r) => a + r.share, 0);
  const ranks = rankSources(core);
  const totalCount = core.raw.reduce((a, r) => a + r.count, 0);
  const geoSum = core.raw.reduce((a, r) => a + r.geoWordCount, 0);
  const geoPosSum = core.raw.reduce((a, r) => a + r.geoPositionAdjusted, 0);
  const geoNorm = roundPartition(core.raw.map((r) => r.geoWordCount));
  const geoPosNorm = roundPartition(core.raw.map((r) => r.geoPositionAdjusted));
  const promptFeatures = input.prompt ? featuresOf(input.prompt, core.language) : null;
  const unitTokens = core.segmented.units.map((u) => featuresOf(u.plainText, core.language));
  const proxies = core.sources.map((_, j) =>
    subjectiveProxies(core.units, unitTokens, j, promptFeatures, core.aligner.idf),
  );
  const impressions = subjectiveImpression(proxies);

  const sources = core.sources.map((s, j): InfluenceSource => {
    const r = core.raw[j];
    const page = s.record?.page;
    const share = shares[j] ?? 0;
    const finalUrl = page?.finalUrl ?? s.normalizedUrl;
    return {
      sourceId: s.sourceId,
      inputIndex: s.inputIndex,
      position: input.citations[j]?.position ?? null,
      url: s.url,
      finalUrl,
      host: finalHost(s),
      registrableDomain: registrableDomain(finalHost(s)),
      title: s.title,
      duplicateOf: s.duplicateOf,
      fetch: {
        status: s.duplicateOf ? 'duplicate' : (page?.status ?? 'not_fetched'),
        httpStatus: page?.httpStatus ?? null,
        contentType: page?.contentType ?? null,
        bytes: page?.bytes ?? 0,
        // No durationMs: wall-clock time would make equal inputs give unequal results (§0); it is logged.
        fromCache: s.record?.fromCache ?? false,
        short: page?.short === true,
      },
      text: s.text,
      influence: {
        share,
        shareOfAttributed: attributedTotal > 0 ? round4((r?.share ?? 0) / attributedTotal) : null,
        uncitedShare: round4(r?.uncitedShare ?? 0),
        score: Math.round(100 * share),
        rank: ranks.get(j) ?? j + 1,
        // Never more than the claims show: `high` needs a claim it supports fully (influence-level.ts).
        ...influenceLevel(
          r?.share ?? 0,
          {
            citedUnits: r?.citedUnits ?? 0,
            supportedUnits: r?.supportedUnits ?? 0,
            partialUnits: r?.partialUnits ?? 0,
            passages: s.text.passages,
          },
          cfg,
        ),
      },
      geo: core.anyValidCitation
        ? {
            wordCount: round4(r?.geoWordCount ?? 0),
            positionAdjustedWordCount: round4(r?.geoPositionAdjusted ?? 0),
            normalizedWordCount: geoSum > 0 ? (geoNorm[j] ?? 0) : 0,
            normalizedPositionAdjustedWordCount: geoPosSum > 0 ? (geoPosNorm[j] ?? 0) : 0,
            subjective: subjectiveOut(proxies[j], impressions[j]),
          }
        : {
            wordCount: null,
            positionAdjustedWordCount: null,
            normalizedWordCount: null,
            normalizedPositionAdjustedWordCount: null,
            subjective: null,
          },
      citations: {
        count: r?.count ?? 0,
        citedUnits: r?.citedUnits ?? 0,
        firstCitedUnit: r?.firstCitedUnit ?? null,
        citationShare: totalCount > 0 ? round4((r?.count ?? 0) / totalCount) : null,
      },
      content: {
        supportedUnits: r?.supportedUnits ?? 0,
        partialUnits: r?.partialUnits ?? 0,
        bestSupport: round4(r?.bestSupport ?? 0),
        uniqueSupportShare: round4(r?.uniqueSupportShare ?? 0),
        usedWithoutCitation: r?.usedWithoutCitation ?? false,
        uncitedSupportedUnits: r?.uncitedSupportedUnits ?? 0,
        contradictedUnits: r?.contradictedUnits ?? 0,
        relevanceToPrompt: promptFeatures ? round4(core.aligner.relevance(promptFeatures, j)) : null,
      },
      evidence: evidenceOf(core, j, cfg),
    };
  });

  const distinct = core.sources.filter((s) => !s.duplicateOf);
  const top = [...ranks].find(([, rank]) => rank === 1)?.[0];
  const claims = claimsOf(core, cfg);
  return {
    resultVersion: 2,
    methodVersion: SI_METHOD_VERSION,
    simulated: opts.simulated,
    language: core.language,
    answer: {
      chars: input.answer.length,
      units: core.units.length,
      words: core.units.reduce((a, u) => a + u.words, 0),
      citationMarkers: core.mapping.markerCount,
      invalidMarkers: core.mapping.invalidMarkers,
      unmatchedLinks: core.mapping.unmatchedLinks,
      referencesBlock: core.segmented.referencesBlock,
    },
    summary: {
      sources: distinct.length,
      sourcesWithText: distinct.filter((s) => s.text.source === 'extracted' || s.text.source === 'body_fallback')
        .length,
      sourcesSnippetOnly: distinct.filter((s) => s.text.source === 'snippet' || s.text.source === 'title').length,
      sourcesWithoutText: distinct.filter((s) => s.text.source === 'none').length,
      attributedShare: round4(1 - unattributed),
      unattributedShare: unattributed,
      citationCoverage: nullable(core.answer.citationCoverage),
      citationRecall: nullable(core.answer.citationRecall),
      citationPrecision: nullable(core.answer.citationPrecision),
      groundedShare: nullable(core.answer.groundedShare),
      alignmentMethod: opts.alignmentMethod,
      judge: opts.judge,
      judgeModel: opts.judgeModel,
      judgeWeights: cfg.judge.method === 'learned' ? JUDGE_WEIGHTS.version : null,
      judgeEvaluation: judgeEvaluation(opts.judge, core.language, cfg.judge.method),
      claims: claims.length,
      miscitedClaims: core.units.filter((u) => isMiscited(u, cfg)).length,
      contradictedClaims: core.alignments.filter((al) => al.judgements.some((x) => x.label === 'contradicted')).length,
      topSourceId: top !== undefined && (core.raw[top]?.share ?? 0) > 0 ? (core.sources[top]?.sourceId ?? null) : null,
    },
    sources,
    claims,
    domains: domainsOf(
      core,
      sources.map((s) => ({ share: s.influence.share, count: s.citations.count })),
    ),
    warnings: [...warningsOf(core, input), ...opts.warnings],
    usage: {
      modelTokens: opts.modelTokens,
      sourceFetches: fetchUsage(core.sources),
      credits: opts.credits,
    },
    ...(opts.analysis ? { analysis: opts.analysis } : {}),
  };
}

/** The subjective-impression proxies of a source, rounded, with the facet no text measure stands for left null. */
function subjectiveOut(
  p: ReturnType<typeof subjectiveProxies> | undefined,
  impression: number | undefined,
): SubjectiveImpression | null {
  if (!p) return null;
  return {
    basis: 'lexical_proxies',
    relevance: p.relevance === null ? null : round4(p.relevance),
    influence: round4(p.influence),
    uniqueness: round4(p.uniqueness),
    position: round4(p.position),
    count: round4(p.count),
    diversity: round4(p.diversity),
    clickLikelihood: null,
    impression: round4(impression ?? 0),
  };
}

function domainsOf(core: AnalysisCore, figures: ReadonlyArray<{ share: number; count: number }>): DomainInfluence[] {
  const groups = new Map<string, { sourceIds: string[]; urls: Set<string>; share: number; count: number }>();
  core.sources.forEach((s, j) => {
    const d = registrableDomain(finalHost(s));
    const g = groups.get(d) ?? { sourceIds: [], urls: new Set<string>(), share: 0, count: 0 };
    g.sourceIds.push(s.sourceId);
    g.urls.add(s.normalizedUrl);
    g.share += figures[j]?.share ?? 0;
    g.count += figures[j]?.count ?? 0;
    groups.set(d, g);
  });
  return [...groups]
    .map(([registrableDomain, g]) => ({
      registrableDomain,
      sourceIds: g.sourceIds,
      urls: g.urls.size,
      influenceShare: round4(g.share),
      citationCount: g.count,
    }))
    .sort(
      (a, b) =>
        b.influenceShare - a.influenceShare ||
        b.citationCount - a.citationCount ||
        a.registrableDomain.localeCompare(b.registrableDomain, 'en'),
    );
}

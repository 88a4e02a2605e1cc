import { registrableDomain } from '../common/urls.js';
import { emptyModelTokens } from '../model/meter.js';
import type { SourceInfluenceConfig } from '../config.js';
import { excerpt, round4, roundPartition, type Language } from '../text/norm.js';
import { sentences } from '../text/segment.js';
import { tokenize } from '../text/tokens.js';
import { finalHost, type AnalysisCore, type PreparedSource } from './core.js';
import { subjectiveImpression, subjectiveProxies } from './geo.js';
import { influenceLevel } from './influence-level.js';
import { isMiscited, misciteSupporters } from './metrics.js';
import { featuresOf, type Passage } from './passages.js';
import { SI_METHOD_VERSION, type SourceFetchUsage, type SourceInfluenceInput, type Warning } from './types.js';

/** Assembles the §2.12 result (legacy shape, without `analysis`) from the analysis core. */

const nullable = (x: number | null) => (x === null ? null : round4(x));

function supportLevel(s: number, cfg: SourceInfluenceConfig): 'full' | 'partial' | 'none' {
  return s >= cfg.tauFull ? 'full' : s >= cfg.tauPartial ? 'partial' : 'none';
}

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

/** Up to 300 characters of the passage, starting at the sentence that shares most tokens with the unit. */
function focusedExcerpt(passageText: string, unitText: string, lang: Language): string {
  const unitTokens = new Set(tokenize(unitText).tokens);
  let bestStart = 0;
  let bestHits = -1;
  for (const s of sentences(passageText, lang)) {
    const hits = new Set(tokenize(s.text).tokens.filter((t) => unitTokens.has(t))).size;
    if (hits > bestHits) {
      bestHits = hits;
      bestStart = s.start;
    }
  }
  return excerpt(passageText.slice(bestStart), 300);
}

function evidence(core: AnalysisCore, j: number, cfg: SourceInfluenceConfig): unknown[] {
  return core.units
    .map((u, ui) => ({ ui, weight: (core.weights[ui]?.[j] ?? 0) * u.words }))
    .filter((e) => e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.ui - b.ui)
    .slice(0, 3)
    .map(({ ui }) => {
      const unit = core.segmented.units[ui];
      const al = core.alignments[ui];
      const s = al?.support[j] ?? 0;
      const bestIdx = al?.best[j] ?? null;
      const passage: Passage | undefined = bestIdx === null ? undefined : core.passages[bestIdx];
      return {
        unitIndex: ui,
        answerExcerpt: excerpt(unit?.plainText ?? '', 240),
        sourceExcerpt: passage ? focusedExcerpt(passage.text, unit?.plainText ?? '', passage.language) : null,
        support: round4(s),
        level: supportLevel(s, cfg),
        cited: core.units[ui]?.cited.has(j) ?? false,
      };
    });
}

/**
 * The per-claim view: every unit of the answer with its text and position, the sources it cites, and for every source
 * with text the judge's label, score, evidence passage and reason, plus the `miscited` flag and the sources that
 * support it without being cited (uncited support).
 */
function claimsOf(core: AnalysisCore, cfg: SourceInfluenceConfig): unknown[] {
  const readable = core.sources.map((s, j) => ({ s, j })).filter(({ s }) => !s.duplicateOf && s.text.source !== 'none');
  return core.units.map((u, ui) => {
    const unit = core.segmented.units[ui];
    const al = core.alignments[ui];
    const sourceOf = (j: number) => core.sources[j]?.sourceId ?? `c${j + 1}`;
    const supporters = misciteSupporters(u, cfg);
    const judged = readable.map(({ s, j }) => {
      const jd = al?.judgements[j];
      const label = jd?.label ?? 'unsupported';
      // An uncited page that does not support the claim has no evidence worth its bytes (answers × pages).
      const showEvidence = label !== 'unsupported' || u.cited.has(j);
      return {
        j,
        sourceId: s.sourceId,
        cited: u.cited.has(j),
        label,
        score: round4(jd?.score ?? 0),
        evidence: showEvidence && jd?.evidence ? excerpt(jd.evidence, 300) : null,
        reason: jd?.reason ?? null,
        changed: jd?.changed ?? null,
        judge: jd?.judge ?? 'lexical',
        weight: round4(core.weights[ui]?.[j] ?? 0),
      };
    });
    return {
      claimId: `u${ui + 1}`,
      index: ui,
      text: unit?.plainText ?? '',
      start: unit?.start ?? 0,
      end: (unit?.start ?? 0) + (unit?.text.length ?? 0),
      words: u.words,
      trivial: al?.trivial ?? true,
      cites: [...u.cited].sort((a, b) => a - b).map(sourceOf),
      miscited: supporters.length > 0,
      supportedBy: judged.filter((x) => x.label === 'supported').map((x) => x.sourceId),
      // Uncited pages that support the claim: labelled supported, or the pages a miscited claim's content is on.
      uncitedSupport: judged
        .filter((x) => !x.cited && (x.label === 'supported' || supporters.includes(x.j)))
        .map((x) => x.sourceId),
      contradictedBy: judged.filter((x) => x.label === 'contradicted').map((x) => x.sourceId),
      sources: judged.map(({ j: _, ...rest }) => rest),
    };
  });
}

export function warningsOf(core: AnalysisCore, input: SourceInfluenceInput): Warning[] {
  const w: Warning[] = [];
  for (const s of core.sources) {
    if (s.duplicateOf) {
      w.push({
        code: 'DUPLICATE_CITATION',
        sourceId: s.sourceId,
        message: `Same URL as ${s.duplicateOf}; its markers count for ${s.duplicateOf}.`,
      });
      continue;
    }
    const page = s.record?.page;
    if (page && page.status !== 'ok') {
      w.push({
        code: 'SOURCE_FETCH_FAILED',
        sourceId: s.sourceId,
        message: `Page not read (${page.status}${page.detail ? `: ${page.detail}` : ''}).`,
      });
    }
    if (s.text.source === 'snippet' || s.text.source === 'title') {
      w.push({
        code: 'SOURCE_SNIPPET_ONLY',
        sourceId: s.sourceId,
        message: `Aligned against the citation's ${s.text.source} only.`,
      });
    }
    if (page?.status === 'ok' && page.short)
      w.push({
        code: 'SOURCE_TEXT_SHORT',
        sourceId: s.sourceId,
        message: `Page text is short (${s.text.chars} characters); it is used as read.`,
      });
    if (s.text.truncated)
      w.push({
        code: 'SOURCE_TEXT_TRUNCATED',
        sourceId: s.sourceId,
        message: `Page text cut at ${s.text.chars} characters.`,
      });
  }
  if (core.mapping.invalidMarkers.length > 0) {
    w.push({
      code: 'INVALID_CITATION_MARKER',
      message: `${core.mapping.invalidMarkers.length} marker(s) point to no citation; they are ignored.`,
    });
  }
  if (input.citations.length > 0 && core.mapping.markerCount === 0) {
    w.push({
      code: 'NO_CITATION_MARKERS',
      message: 'The answer has no citation markers; influence comes from content alignment only.',
    });
  }
  if (input.citations.length > 0 && core.passages.length === 0) {
    w.push({ code: 'NO_SOURCE_TEXT', message: 'No source text, snippet or title was available to align against.' });
  }
  if (core.units.every((u) => u.alignment.trivial)) {
    w.push({ code: 'ANSWER_TRIVIAL', message: 'The answer has no unit with at least 3 content words.' });
  }
  return w;
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

/** Which judge labelled the pairs: the lexical judge alone, or the model for some pairs (the rest lexical). */
export type JudgeBasis = 'lexical' | 'lexical+model' | 'model';

export interface ResultOptions {
  alignmentMethod: 'lexical' | 'lexical+model_check';
  judge: JudgeBasis;
  /** The model that judged pairs (the simulator's name in the sandbox), null without one. */
  judgeModel: string | null;
  /** True when the pages (and model) came from the sandbox's simulators. */
  simulated: boolean;
  /** Warnings of steps outside the core (the model check). */
  warnings: readonly Warning[];
}

export function buildResult(
  core: AnalysisCore,
  input: SourceInfluenceInput,
  cfg: SourceInfluenceConfig,
  opts: ResultOptions,
): Record<string, unknown> {
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

  const sources = core.sources.map((s, j) => {
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
      evidence: evidence(core, j, cfg),
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
      modelTokens: emptyModelTokens(),
      sourceFetches: fetchUsage(core.sources),
    },
  };
}

/** The subjective-impression proxies of a source, rounded, with the facet no text measure stands for left null. */
function subjectiveOut(p: ReturnType<typeof subjectiveProxies> | undefined, impression: number | undefined): unknown {
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

function domainsOf(core: AnalysisCore, figures: ReadonlyArray<{ share: number; count: number }>): unknown[] {
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

import { hostnameOf, normalizeCitationUrl } from '../common/urls.js';
import type { SourceInfluenceConfig } from '../config.js';
import { detectLanguage, norm, type Language } from '../text/norm.js';
import { Aligner, type UnitAlignment } from './align.js';
import type { SupportLabel } from './judge/labels.js';
import { mapCitations, type CitationMapping, type CitationTarget } from './citations.js';
import {
  answerMetrics,
  attributionWeights,
  sourceMetrics,
  type AnswerRaw,
  type SourceRaw,
  type UnitFacts,
} from './metrics.js';
import { buildPassages, featuresOf, type Passage, type PassageIndex, type SourceTextInput } from './passages.js';
import type { FetchRecord, SourceInfluenceInput, TextInfo } from './types.js';
import { segmentAnswer, type SegmentedAnswer } from './units.js';

/**
 * The deterministic heart of SOURCE_INFLUENCE: from the request and the fetched pages to units,
 * alignments, attribution weights and raw metrics. No I/O, so the same inputs always give the
 * same numbers (§0 determinism); the result is assembled and rounded in result.ts.
 */
export interface PreparedSource {
  sourceId: string;
  inputIndex: number;
  url: string;
  normalizedUrl: string;
  /** Index of the first citation with the same normalised URL. */
  canonical: number;
  duplicateOf: string | null;
  record: FetchRecord | null;
  text: TextInfo;
  title: string | null;
}

export interface AnalysisCore {
  language: Language;
  segmented: SegmentedAnswer;
  sources: PreparedSource[];
  mapping: CitationMapping;
  passages: Passage[];
  /** What the aligner was built from (it is rebuilt from this when the core crosses a thread boundary). */
  passageIndex: PassageIndex;
  aligner: Aligner;
  units: UnitFacts[];
  alignments: UnitAlignment[];
  weights: number[][];
  raw: SourceRaw[];
  answer: AnswerRaw;
  anyValidCitation: boolean;
}

export function prepareTargets(input: SourceInfluenceInput): CitationTarget[] {
  const seen = new Map<string, number>();
  return input.citations.map((c, i) => {
    const normalizedUrl = normalizeCitationUrl(c.url);
    const canonical = seen.get(normalizedUrl) ?? i;
    if (!seen.has(normalizedUrl)) seen.set(normalizedUrl, i);
    return { normalizedUrl, position: Number.isInteger(c.position) ? c.position : undefined, canonical };
  });
}

function sourceText(
  input: SourceInfluenceInput,
  i: number,
  record: FetchRecord | null,
  answerLang: Language,
): { text: SourceTextInput; info: Omit<TextInfo, 'passages'> } {
  const c = input.citations[i];
  const title = c?.title?.trim() || c?.label?.trim() || '';
  const snippet = c?.snippet?.trim() || '';
  const snippetText = snippet ? norm(`${title} ${snippet}`) : '';
  const pageText = record?.page.status === 'ok' ? record.page.text : null;
  if (pageText) {
    const lang = detectLanguage(pageText);
    return {
      text: { text: pageText, snippetText: snippetText || null, language: lang === 'und' ? answerLang : lang },
      info: {
        source: record?.page.textSource ?? 'extracted',
        chars: pageText.length,
        truncated: record?.page.truncated ?? false,
        language: lang,
      },
    };
  }
  const fallback = snippetText || norm(title);
  const lang = fallback ? detectLanguage(fallback) : 'und';
  return {
    text: { text: null, snippetText: fallback || null, language: lang === 'und' ? answerLang : lang },
    info: {
      source: snippetText ? 'snippet' : title ? 'title' : 'none',
      chars: fallback.length,
      truncated: false,
      language: lang,
    },
  };
}

function textInfo(info: Omit<TextInfo, 'passages'> | undefined, passages: number): TextInfo {
  const i = info ?? { source: 'none', chars: 0, truncated: false, language: 'und' };
  return { source: i.source, chars: i.chars, passages, truncated: i.truncated, language: i.language };
}

export function analyzeCore(
  input: SourceInfluenceInput,
  records: ReadonlyArray<FetchRecord | null>,
  cfg: SourceInfluenceConfig,
): AnalysisCore {
  const targets = prepareTargets(input);
  const segmented = segmentAnswer(input.answer);
  const language = segmented.language;
  const mapping = mapCitations(targets, segmented.units, segmented.references);

  const texts = input.citations.map((_, i) => {
    const isDuplicate = targets[i]?.canonical !== i;
    if (isDuplicate)
      return {
        text: { text: null, snippetText: null, language } as SourceTextInput,
        info: { source: 'none' as const, chars: 0, truncated: false, language: 'und' as const },
      };
    return sourceText(input, i, records[i] ?? null, language);
  });
  const passageIndex = buildPassages(
    texts.map((t) => t.text),
    cfg.passage,
  );
  const { passages, perSource } = passageIndex;
  const sources: PreparedSource[] = input.citations.map((c, i) => {
    const t = targets[i] as CitationTarget;
    const meta = records[i]?.page.metadata;
    return {
      sourceId: `c${i + 1}`,
      inputIndex: i,
      url: c.url,
      normalizedUrl: t.normalizedUrl,
      canonical: t.canonical,
      duplicateOf: t.canonical === i ? null : `c${t.canonical + 1}`,
      record: records[i] ?? null,
      text: textInfo(texts[i]?.info, perSource[i]?.length ?? 0),
      title: c.title?.trim() || meta?.ogTitle || meta?.title || c.label?.trim() || null,
    };
  });

  const aligner = new Aligner(passageIndex, cfg);
  const alignments: UnitAlignment[] = [];
  const units: UnitFacts[] = segmented.units.map((u, ui) => {
    const features = featuresOf(u.plainText, language);
    const cited = mapping.cited[ui] ?? new Set<number>();
    const alignment = aligner.align({ features, cited });
    alignments.push(alignment);
    return {
      index: u.index,
      words: u.words,
      geoWords: u.geoWords,
      cited,
      occurrences: mapping.occurrences[ui] ?? [],
      alignment,
    };
  });
  const weights = attributionWeights(units, input.citations.length, cfg);
  const raw = sourceMetrics(units, weights, input.citations.length);
  const anyValidCitation = units.some((u) => u.cited.size > 0);
  return {
    language,
    segmented,
    sources,
    mapping,
    passages,
    passageIndex,
    aligner,
    units,
    alignments,
    weights,
    raw,
    answer: answerMetrics(units, anyValidCitation, cfg),
    anyValidCitation,
  };
}

/** The core as plain data (structured-cloneable): computed in the parse pool, used on the main thread. */
export type PortableCore = Omit<AnalysisCore, 'aligner'>;

export function portableCore(core: AnalysisCore): PortableCore {
  const { aligner: _aligner, ...rest } = core;
  return rest;
}

/** The core again, with its aligner rebuilt from the passage index (linear in the pages' tokens). */
export function restoreCore(p: PortableCore, cfg: SourceInfluenceConfig): AnalysisCore {
  return { ...p, aligner: new Aligner(p.passageIndex, cfg) };
}

/**
 * Support a model label stands for (§2.10): the model gives a label, not a score, so its label is placed inside the
 * band of the configured thresholds (supported at max(0.9, τ_full), partial midway between τ_part and τ_full).
 */
function judgedSupport(label: SupportLabel, cfg: Pick<SourceInfluenceConfig, 'tauFull' | 'tauPartial'>): number {
  if (label === 'supported') return Math.max(0.9, cfg.tauFull);
  if (label === 'partial') return (cfg.tauPartial + cfg.tauFull) / 2;
  return 0;
}

/**
 * The core with some pairs relabelled by the model judge (§2.10), and everything that depends on them (joint support,
 * weights, metrics) recomputed. The judgement keeps the lexical evidence passage and records `judge: "model"`. Joint
 * support may only grow from a judgement that one cited source supports the unit on its own; with a single cited
 * source it is that source's judged support.
 */
export function withModelJudgements(
  core: AnalysisCore,
  overrides: ReadonlyMap<number, ReadonlyMap<number, SupportLabel>>,
  cfg: SourceInfluenceConfig,
): AnalysisCore {
  if (overrides.size === 0) return core;
  const alignments = core.alignments.map((al, ui) => {
    const o = overrides.get(ui);
    if (!o) return al;
    const judgements = al.judgements.map((jd, j) => {
      const label = o.get(j);
      if (label === undefined) return jd;
      const changed = label === 'contradicted' ? jd.changed : null;
      const reason = label === 'contradicted' ? jd.reason : null;
      // A model's label has no measured confidence here (docs/analysis.md#the-model-judge): its expected support is
      // the label's own, and its confidence null.
      const expectedSupport = label === 'supported' ? 1 : label === 'partial' ? 0.5 : 0;
      return {
        ...jd,
        label,
        score: judgedSupport(label, cfg),
        reason,
        changed,
        judge: 'model' as const,
        confidence: null,
        expectedSupport,
      };
    });
    const support = judgements.map((jd) => jd.expectedSupport);
    const cited = [...(core.units[ui]?.cited ?? [])];
    const jointOf = (set: number[], lexical: number) =>
      set.length === 1 ? (support[set[0] as number] ?? 0) : Math.max(lexical, ...set.map((j) => support[j] ?? 0));
    const joint = cited.length === 0 ? 0 : jointOf(cited, al.joint);
    const jointWithout = new Map<number, number>();
    for (const [j, lexical] of al.jointWithout)
      jointWithout.set(
        j,
        jointOf(
          cited.filter((k) => k !== j),
          lexical,
        ),
      );
    return { ...al, support, judgements, joint, jointWithout };
  });
  const units = core.units.map((u, ui) => ({ ...u, alignment: alignments[ui] as UnitAlignment }));
  const weights = attributionWeights(units, core.sources.length, cfg);
  return {
    ...core,
    alignments,
    units,
    weights,
    raw: sourceMetrics(units, weights, core.sources.length),
    answer: answerMetrics(units, core.anyValidCitation, cfg),
  };
}

/** Host of the page actually read (redirects to another domain are classified by the final URL). */
export function finalHost(s: PreparedSource): string {
  return hostnameOf(s.record?.page.finalUrl ?? s.normalizedUrl) || hostnameOf(s.normalizedUrl);
}

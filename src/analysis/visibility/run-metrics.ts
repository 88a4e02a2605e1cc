import { round4 } from '../text/norm.js';
import { type AnswerFacts, factsFor, type TrackedBrands, trackBrands } from './answer-facts.js';
import { INTERVAL_LEVEL, type Interval } from './intervals.js';
import { type BrandIntervals, groupIntervals, type PromptFacts } from './run-intervals.js';
import type { PromptCount } from './signals.js';
import type { CompetitorBrand, MonitoredBrand, RunAnswer } from './types.js';

/** Recorded with stored figures; any change of a definition in §6 bumps it (§0). */
export const VISIBILITY_METHOD_VERSION = 'visibility/1.3.0';

/** How many domains `topCitedDomains` lists unless told otherwise. */
const DEFAULT_TOP_DOMAINS = 10;

/** The figures of one group of answers (one run, engine and country), §6.3. Shares have 4 decimals (§0). */
export interface VisibilityMetrics {
  methodVersion: string;
  /** Answers mentioning the monitored brand / answers with a text; null without answers. */
  mentionRate: number | null;
  /** Mean `position` over the answers mentioning the brand; null when none does. */
  avgFirstMentionPosition: number | null;
  /** Mean `relativeOffset` of the first mention over the same answers; null when none does. */
  avgFirstMentionOffset: number | null;
  /** The brand's answer-mentions / all tracked brands' answer-mentions (§6.3); null when no brand is mentioned. */
  shareOfVoice: number | null;
  /** Citations of the brand's own domains / all citations; null without citations. */
  ownCitationShare: number | null;
  topCitedDomains: DomainCount[];
  /**
   * Answers that searched the web / answers whose engine says whether it searched (§6.9); null when no engine of the
   * group says.
   */
  searchRate: number | null;
  /**
   * The domains the answers read, cited or not, by how many answers read them (§6.9); empty when no answer's engine
   * lists what it read.
   */
  topRetrievedDomains: RetrievedDomainCount[];
  /** The same figures for every tracked brand: the monitored one first, then the competitors in order. */
  brands: BrandMetrics[];
  /** 95% intervals of the monitored brand's figures (§6.6); a bound is null where its figure rests on too little. */
  intervals: FigureIntervals;
  counts: VisibilityCounts;
  /**
   * Per prompt, its answers and how many name each tracked brand (in `brands` order), for the prompts that moved
   * when a figure changes (§6.7); without prompts (`visibilityMetrics` without them) one entry per answer.
   */
  byPrompt: PromptCount[];
}

interface FigureIntervals {
  level: number;
  mentionRate: Interval | null;
  shareOfVoice: Interval | null;
  avgFirstMentionPosition: Interval | null;
  ownCitationShare: Interval | null;
  searchRate: Interval | null;
}

/** What the figures rest on. */
interface VisibilityCounts {
  /** Tasks given: answered (with or without a text) and failed. */
  tasks: number;
  /** Failed tasks, left out of every figure. */
  failed: number;
  /** Answered without a letter or digit of text, left out of every figure. */
  empty: number;
  /** Answers with a text: the denominator of the mention rate. */
  answers: number;
  /** Prompts with at least one answer: the independent units the intervals rest on (§6.6). */
  prompts: number;
  /** Answers over the mention rate's design effect: what its interval rests on (equal to `answers` at one sample). */
  effectiveAnswers: number;
  /** Answers mentioning the monitored brand: the numerator of the mention rate. */
  mentioningAnswers: number;
  /** Occurrences of the monitored brand's names over all answers. */
  mentions: number;
  /** Occurrences of all tracked brands' names (the denominator of a per-mention share, §6.3). */
  allBrandMentions: number;
  /** Pairs (answer, tracked brand) where the answer mentions the brand: the denominator of the share of voice. */
  brandAnswerPairs: number;
  /** Distinct cited sources over all answers: the denominator of the citation shares. */
  citations: number;
  /** Citations of the monitored brand's own domains. */
  ownCitations: number;
  /** Sources without a host, not counted as citations. */
  invalidCitations: number;
  /** Answers whose engine says whether it searched: the denominator of the search rate. */
  searchKnown: number;
  /** Answers that searched: the numerator of the search rate. */
  searchedAnswers: number;
  /** Answers whose engine lists the pages it read: the denominator of the retrieval rates. */
  retrievalKnown: number;
}

interface BrandMetrics {
  name: string;
  role: 'brand' | 'competitor';
  mentioningAnswers: number;
  mentions: number;
  mentionRate: number | null;
  shareOfVoice: number | null;
  avgFirstMentionPosition: number | null;
  /** Citations of this brand's domains (competitors without domains have 0). */
  citations: number;
  citationShare: number | null;
  intervals: BrandIntervals;
}

interface DomainCount {
  /** Registrable domain. */
  domain: string;
  citations: number;
  /** `citations` / all citations. */
  share: number;
  /** The share's 95% interval (§6.6). */
  shareInterval: Interval | null;
  /** Answers citing the domain at least once. */
  answers: number;
  /** The tracked brand owning the first owned host cited under this domain, or null when none is owned. */
  owner: string | null;
  /** `answers` / all answers with a text: how often an answer cites the domain (§6.9). */
  citationRate: number | null;
  citationRateInterval: Interval | null;
  /**
   * Answers that read the domain (cited or not) / answers whose engine lists what it read (§6.9); null when none
   * does.
   */
  retrievalRate: number | null;
  retrievalRateInterval: Interval | null;
}

/** A domain the answers read (§6.9): how many read it, and how many of those cited it. */
interface RetrievedDomainCount {
  domain: string;
  /** Answers that read the domain, cited or not. */
  answers: number;
  /** Of those, the answers citing it. */
  citedAnswers: number;
  retrievalRate: number | null;
  retrievalRateInterval: Interval | null;
  /** The tracked brand owning the domain, or null. */
  owner: string | null;
}

export interface VisibilityOptions {
  /** Length of `topCitedDomains` (default 10). */
  top?: number;
}

/** The visibility figures of one group of tasks for a brand and its competitors. */
export function visibilityMetrics(
  tasks: readonly RunAnswer[],
  brand: MonitoredBrand,
  competitors: readonly CompetitorBrand[] = [],
  options: VisibilityOptions = {},
): VisibilityMetrics {
  const tracked = trackBrands(brand, competitors);
  const facts: PromptFacts[] = [];
  let failed = 0;
  for (const [i, t] of tasks.entries()) {
    if (t.status === 'failed') failed++;
    // Without its prompt, each answer is its own cluster (one sample per prompt).
    else facts.push({ prompt: t.prompt ?? `#${i}`, facts: factsFor(t.answer, tracked) });
  }
  return aggregateFacts(tracked, facts, failed, options);
}

/**
 * The figures from per-answer facts already computed by `factsFor` with the same `tracked` brands, each with the
 * prompt it answers (the cluster of its samples), plus the number of failed tasks. Answers without a text count as
 * `empty` and add nothing else.
 */
export function aggregateFacts(
  tracked: TrackedBrands,
  answered: readonly PromptFacts[],
  failed: number,
  options: VisibilityOptions = {},
): VisibilityMetrics {
  const all = answered.map((a) => a.facts);
  const facts = all.filter((f) => f.hasText);
  const intervals = groupIntervals(tracked, answered);
  const answers = facts.length;
  const perBrand = tracked.map((b, i) => {
    const inAnswers = facts.map((f) => f.brands[i]);
    const positions = inAnswers.flatMap((x) => (x?.position ? [x.position] : []));
    return {
      name: b.name,
      role: b.role,
      mentioningAnswers: positions.length,
      mentions: inAnswers.reduce((a, x) => a + (x?.count ?? 0), 0),
      avgPosition: mean(positions),
      citations: facts.reduce((a, f) => a + f.citations.filter((c) => c.owner === b.name).length, 0),
    };
  });
  const brandAnswerPairs = perBrand.reduce((a, b) => a + b.mentioningAnswers, 0);
  const citations = facts.reduce((a, f) => a + f.citations.length, 0);
  const ownCitations = facts.reduce((a, f) => a + f.citations.filter((c) => c.own).length, 0);
  const brands = perBrand.map(
    (b, i): BrandMetrics => ({
      name: b.name,
      role: b.role,
      mentioningAnswers: b.mentioningAnswers,
      mentions: b.mentions,
      mentionRate: share(b.mentioningAnswers, answers),
      shareOfVoice: share(b.mentioningAnswers, brandAnswerPairs),
      avgFirstMentionPosition: b.avgPosition,
      citations: b.role === 'brand' ? ownCitations : b.citations,
      citationShare: share(b.role === 'brand' ? ownCitations : b.citations, citations),
      intervals: intervals.brands[i] as BrandIntervals,
    }),
  );
  const searchKnown = facts.filter((f) => f.searched !== null).length;
  const searchedAnswers = facts.filter((f) => f.searched === true).length;
  const retrievalKnown = facts.filter((f) => f.retrievedDomains !== null).length;
  // Averaged unrounded; `relativeOffset` itself is rounded for display.
  const offsets = facts.flatMap((f) => (f.firstMention ? [f.firstMention.offset / f.length] : []));
  const own = brands[0];
  return {
    methodVersion: VISIBILITY_METHOD_VERSION,
    mentionRate: own?.mentionRate ?? null,
    avgFirstMentionPosition: own?.avgFirstMentionPosition ?? null,
    avgFirstMentionOffset: mean(offsets),
    shareOfVoice: own?.shareOfVoice ?? null,
    ownCitationShare: share(ownCitations, citations),
    topCitedDomains: topDomains(facts, citations, options.top ?? DEFAULT_TOP_DOMAINS).map((d) => ({
      ...d,
      shareInterval: intervals.domainShare(d.domain),
      citationRate: share(d.answers, answers),
      citationRateInterval: intervals.domainCitationRate(d.domain),
      retrievalRate: retrievalKnown > 0 ? share(readBy(facts, d.domain), retrievalKnown) : null,
      retrievalRateInterval: retrievalKnown > 0 ? intervals.domainRetrievalRate(d.domain) : null,
    })),
    searchRate: share(searchedAnswers, searchKnown),
    topRetrievedDomains: topRead(facts, options.top ?? DEFAULT_TOP_DOMAINS).map((d) => ({
      ...d,
      retrievalRate: share(d.answers, retrievalKnown),
      retrievalRateInterval: intervals.domainRetrievalRate(d.domain),
    })),
    brands,
    intervals: {
      level: INTERVAL_LEVEL,
      mentionRate: own?.intervals.mentionRate ?? null,
      shareOfVoice: own?.intervals.shareOfVoice ?? null,
      avgFirstMentionPosition: own?.intervals.avgFirstMentionPosition ?? null,
      ownCitationShare: own?.intervals.citationShare ?? null,
      searchRate: intervals.searchRate,
    },
    counts: {
      tasks: all.length + failed,
      failed,
      empty: all.length - answers,
      answers,
      prompts: intervals.prompts,
      effectiveAnswers: intervals.effectiveAnswers,
      mentioningAnswers: own?.mentioningAnswers ?? 0,
      mentions: own?.mentions ?? 0,
      allBrandMentions: perBrand.reduce((a, b) => a + b.mentions, 0),
      brandAnswerPairs,
      citations,
      ownCitations,
      invalidCitations: facts.reduce((a, f) => a + f.invalidCitations, 0),
      searchKnown,
      searchedAnswers,
      retrievalKnown,
    },
    byPrompt: intervals.byPrompt,
  };
}

/** Domains by citations, most first; equal counts in domain-name order so the cut at N is deterministic (§0). */
function topDomains(
  facts: readonly AnswerFacts[],
  total: number,
  n: number,
): Pick<DomainCount, 'domain' | 'citations' | 'share' | 'answers' | 'owner'>[] {
  const byDomain = new Map<string, { citations: number; answers: number; owner: string | null }>();
  for (const f of facts) {
    const inThisAnswer = new Set<string>();
    for (const c of f.citations) {
      const d = byDomain.get(c.domain) ?? { citations: 0, answers: 0, owner: c.owner };
      d.citations++;
      if (!inThisAnswer.has(c.domain)) d.answers++;
      inThisAnswer.add(c.domain);
      d.owner ??= c.owner;
      byDomain.set(c.domain, d);
    }
  }
  return [...byDomain.entries()]
    .map(([domain, d]) => ({ domain, citations: d.citations, share: 0, answers: d.answers, owner: d.owner }))
    .sort((a, b) => b.citations - a.citations || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0))
    .slice(0, Math.max(0, n))
    .map((d) => ({ ...d, share: round4(d.citations / total) }));
}

/** Answers whose engine lists what it read and that read `domain`. */
function readBy(facts: readonly AnswerFacts[], domain: string): number {
  return facts.filter((f) => f.retrievedDomains?.some((d) => d.domain === domain)).length;
}

/** Domains by answers that read them, most first, ties in domain-name order (§0). */
function topRead(
  facts: readonly AnswerFacts[],
  n: number,
): Omit<RetrievedDomainCount, 'retrievalRate' | 'retrievalRateInterval'>[] {
  const byDomain = new Map<string, { answers: number; citedAnswers: number; owner: string | null }>();
  for (const f of facts) {
    if (!f.retrievedDomains) continue;
    const cited = new Set(f.citations.map((c) => c.domain));
    for (const d of f.retrievedDomains) {
      const row = byDomain.get(d.domain) ?? { answers: 0, citedAnswers: 0, owner: d.owner };
      row.answers++;
      if (cited.has(d.domain)) row.citedAnswers++;
      row.owner ??= d.owner;
      byDomain.set(d.domain, row);
    }
  }
  return [...byDomain.entries()]
    .map(([domain, d]) => ({ domain, ...d }))
    .sort((a, b) => b.answers - a.answers || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0))
    .slice(0, Math.max(0, n));
}

function share(part: number, whole: number): number | null {
  return whole > 0 ? round4(part / whole) : null;
}

function mean(xs: readonly number[]): number | null {
  return xs.length > 0 ? round4(xs.reduce((a, b) => a + b, 0) / xs.length) : null;
}

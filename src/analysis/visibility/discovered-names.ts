import { round4 } from '../text/norm.js';
import { type AnswerFacts, factsFor, type TrackedBrands, trackBrands } from './answer-facts.js';
import { groupEvidence, type NameOccurrence, namesIn } from './name-candidates.js';
import { foldWord, scanText } from './name-scan.js';
import type { Answer, CompetitorBrand } from './types.js';

/**
 * The brands nobody named (§6.8): in one group of answers (one run, engine and country), the organisations,
 * products and domains the answers name or cite that are neither the monitored brand nor a competitor, found by
 * the rules of `name-scan.ts` and `name-candidates.ts` (no model), ranked by how many answers name them.
 */

/** One answer of the group, with the prompt it answers. */
export interface PromptAnswer extends Answer {
  prompt: string;
}

interface DiscoveredName {
  /** The most common way the answers write it, without trailing numbers (ties in code-unit order). */
  name: string;
  /** What merges its variants (NFKC, lower case, no possessive, no trailing number): the join key across runs. */
  key: string;
  /** The forms written, numbers included (Hoka Clifton 9, Hoka Clifton 10), most common first, at most 5. */
  variants: string[];
  /** Answers naming it. */
  answers: number;
  /** Its occurrences over all answers. */
  mentions: number;
  /** `answers` / answers with a text, 4 decimals. */
  share: number;
  /**
   * Mean rank by first mention among every brand its answers name, tracked and discovered together (1 = named
   * first), 4 decimals.
   */
  avgPosition: number;
  /** The distinct prompts whose answers name it, in code-unit order. */
  prompts: string[];
}

interface DiscoveredDomain {
  /** Registrable domain (eTLD+1), as in `topCitedDomains` (§6.2). */
  domain: string;
  /** Distinct cited URLs under it, summed over the answers. */
  citations: number;
  /** `citations` / all citations of the group, 4 decimals. */
  share: number;
  /** Answers citing it. */
  answers: number;
}

interface DiscoveredNames {
  /** Recorded with stored results; any change of a rule, list or default of §6.8 bumps it (§0). */
  methodVersion: string;
  names: DiscoveredName[];
  domains: DiscoveredDomain[];
  counts: {
    /** Answers with a text (a letter or digit): the denominator of `share`. */
    answers: number;
    /** Distinct names named by at least `minAnswers` answers, before the cut at `top`. */
    names: number;
    /** Citations of the group, owned or not: the denominator of a domain's `share`. */
    citations: number;
  };
}

interface DiscoverOptions {
  /** How many names to list (default 20). */
  top?: number;
  /** How many domains to list (default 20). */
  topDomains?: number;
  /** A name must be named by at least this many answers to be listed (default 1). */
  minAnswers?: number;
}

const DEFAULT_TOP = 20;
export const DISCOVERY_METHOD_VERSION = 'discovered-names/1.0.0';

/**
 * The names and cited domains of a group of answers that no tracked brand covers. `tracked` is the monitored brand
 * and its competitors (`{ name, aliases, domains? }`, brand first); their names, aliases and domains are left out.
 */
export function discoverNames(
  answers: readonly PromptAnswer[],
  tracked: readonly CompetitorBrand[],
  options: DiscoverOptions = {},
): DiscoveredNames {
  const found = namesByAnswer(answers, tracked);
  const byKey = new Map<string, Tally>();
  for (const { answer, facts, names } of found) tallyAnswer(byKey, answer.prompt, names, facts);
  const total = found.length;
  const names = [...byKey.entries()]
    .filter(([, t]) => t.answers >= (options.minAnswers ?? 1))
    .map(([key, t]) => listed(key, t, total))
    .sort(
      (a, b) =>
        b.answers - a.answers ||
        b.mentions - a.mentions ||
        a.avgPosition - b.avgPosition ||
        compare(a.name, b.name) ||
        compare(a.key, b.key),
    );
  const citations = found.reduce((n, x) => n + x.facts.citations.length, 0);
  return {
    methodVersion: DISCOVERY_METHOD_VERSION,
    names: names.slice(0, Math.max(0, options.top ?? DEFAULT_TOP)),
    domains: unownedDomains(
      found.map((x) => x.facts),
      citations,
    ).slice(0, Math.max(0, options.topDomains ?? DEFAULT_TOP)),
    counts: { answers: total, names: names.length, citations },
  };
}

/** One answer with a text, its facts (§6.2) and the untracked names it holds, in text order. */
export interface AnswerNames {
  answer: PromptAnswer;
  facts: AnswerFacts;
  names: NameOccurrence[];
}

/**
 * The names each answer with a text holds, tracked brands left out; answers without a text are dropped. The rules
 * read the whole group (a word written in lower case in one answer is common in all of them), so the names of an
 * answer depend on the other answers of its group.
 */
export function namesByAnswer(answers: readonly PromptAnswer[], tracked: readonly CompetitorBrand[]): AnswerNames[] {
  const brands = prepare(tracked);
  const excluded = trackedKeys(tracked);
  const withText = answers
    .map((a) => ({ answer: a, facts: factsFor(a, brands) }))
    .filter((x) => x.facts.hasText)
    .map((x) => ({ ...x, scan: scanText(x.answer.text) }));
  const evidence = groupEvidence(withText.map((x) => x.scan));
  return withText.map(({ answer, facts, scan }) => ({
    answer,
    facts,
    names: namesIn(answer.text, scan, evidence).filter(
      (n) => !excluded.some((t) => containsWords(t, n.words)) && !overlapsTracked(n, facts),
    ),
  }));
}

function prepare(tracked: readonly CompetitorBrand[]): TrackedBrands {
  const [brand, ...competitors] = tracked;
  return brand ? trackBrands({ ...brand, domains: brand.domains ?? [] }, competitors) : [];
}

/** The words of every tracked name and alias, folded as the words of names are (`foldWord`). */
function trackedKeys(tracked: readonly CompetitorBrand[]): string[][] {
  return tracked.flatMap((b) =>
    [b.name, ...b.aliases].map((n) =>
      n
        .split(/\s/u)
        .filter((w) => w !== '')
        .map(foldWord),
    ),
  );
}

/** `inner` is `outer` or a run of its words (Samsung in Samsung Electronics): a tracked name, not a new one. */
function containsWords(outer: readonly string[], inner: readonly string[]): boolean {
  for (let i = 0; i + inner.length <= outer.length; i++) {
    if (inner.every((w, k) => outer[i + k] === w)) return true;
  }
  return false;
}

/** The name shares text with a tracked brand's mention (Hoka Clifton 9 with Hoka tracked): it is that brand's. */
function overlapsTracked(n: NameOccurrence, facts: AnswerFacts): boolean {
  return facts.brands.some((b) => b.mentions.some((m) => m.start < n.end && n.start < m.end));
}

interface Tally {
  answers: number;
  mentions: number;
  positionSum: number;
  prompts: Set<string>;
  shown: Map<string, number>;
  written: Map<string, number>;
}

function tallyAnswer(
  byKey: Map<string, Tally>,
  prompt: string,
  found: readonly NameOccurrence[],
  facts: AnswerFacts,
): void {
  // Every brand the answer names, tracked or found, at its first mention: the ranks of `avgPosition`.
  const firsts = new Map<string, number>();
  for (const n of found) if (!firsts.has(n.key)) firsts.set(n.key, n.start);
  const ranked = [
    ...facts.brands.flatMap((b) => (b.mentions[0] ? [{ id: `tracked:${b.name}`, at: b.mentions[0].start }] : [])),
    ...[...firsts].map(([key, at]) => ({ id: `found:${key}`, at })),
  ].sort((a, b) => a.at - b.at || compare(a.id, b.id));
  const rankOf = new Map(ranked.map((r, i) => [r.id, i + 1]));
  for (const n of found) {
    const t = byKey.get(n.key) ?? {
      answers: 0,
      mentions: 0,
      positionSum: 0,
      prompts: new Set<string>(),
      shown: new Map<string, number>(),
      written: new Map<string, number>(),
    };
    byKey.set(n.key, t);
    t.mentions++;
    t.shown.set(n.display, (t.shown.get(n.display) ?? 0) + 1);
    t.written.set(n.written, (t.written.get(n.written) ?? 0) + 1);
  }
  for (const key of firsts.keys()) {
    const t = byKey.get(key) as Tally;
    t.answers++;
    t.positionSum += rankOf.get(`found:${key}`) ?? 0;
    t.prompts.add(prompt);
  }
}

function listed(key: string, t: Tally, total: number): DiscoveredName {
  const byCount = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]));
  return {
    name: byCount(t.shown)[0]?.[0] ?? key,
    key,
    variants: byCount(t.written)
      .slice(0, 5)
      .map(([w]) => w),
    answers: t.answers,
    mentions: t.mentions,
    share: round4(t.answers / total),
    avgPosition: round4(t.positionSum / t.answers),
    prompts: [...t.prompts].sort(compare),
  };
}

/** Cited registrable domains whose hosts no tracked brand owns (§6.2 `owner`), most cited first, ties by name. */
function unownedDomains(facts: readonly AnswerFacts[], total: number): DiscoveredDomain[] {
  const byDomain = new Map<string, { citations: number; answers: number }>();
  for (const f of facts) {
    const inAnswer = new Set<string>();
    for (const c of f.citations) {
      if (c.owner !== null) continue;
      const d = byDomain.get(c.domain) ?? { citations: 0, answers: 0 };
      d.citations++;
      if (!inAnswer.has(c.domain)) d.answers++;
      inAnswer.add(c.domain);
      byDomain.set(c.domain, d);
    }
  }
  return [...byDomain]
    .map(([domain, d]) => ({ domain, citations: d.citations, share: round4(d.citations / total), answers: d.answers }))
    .sort((a, b) => b.citations - a.citations || compare(a.domain, b.domain));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

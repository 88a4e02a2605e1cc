import type { AnswerFacts, TrackedBrands } from './answer-facts.js';
import type { PromptCount } from './signals.js';
import {
  bootstrapRatio,
  type ClusterCount,
  type ClusterRatio,
  clusteredProportion,
  type Interval,
} from './intervals.js';

/** One answer's facts and the prompt it answers: the prompt is the cluster its samples share. */
export interface PromptFacts {
  prompt: string;
  facts: AnswerFacts;
}

/** A tracked brand's figures' intervals (null where the figure is null or rests on too little). */
export interface BrandIntervals {
  mentionRate: Interval | null;
  shareOfVoice: Interval | null;
  avgFirstMentionPosition: Interval | null;
  citationShare: Interval | null;
}

/** What the intervals of one group of answers are: one per tracked brand, and one per cited domain. */
export interface GroupIntervals {
  brands: BrandIntervals[];
  /** The domain's share of all citations, by registrable domain. */
  domainShare: (domain: string) => Interval | null;
  /** Answers citing the domain over all answers (§6.9). */
  domainCitationRate: (domain: string) => Interval | null;
  /** Answers that read the domain over the answers whose engine lists what it read (§6.9). */
  domainRetrievalRate: (domain: string) => Interval | null;
  /** Answers that searched over the answers whose engine says whether it searched (§6.9). */
  searchRate: Interval | null;
  /** Prompts with at least one answer: the independent units the intervals rest on. */
  prompts: number;
  /** The mention rate's effective number of answers (answers over the design effect). */
  effectiveAnswers: number;
  /** Each prompt's answers and how many name each tracked brand: what moved when a figure changes (§6.7). */
  byPrompt: PromptCount[];
}

/** The answers with a text, by prompt, in the order the prompts first appear. */
function byPrompt(all: readonly PromptFacts[]): Map<string, AnswerFacts[]> {
  const groups = new Map<string, AnswerFacts[]>();
  for (const a of all) {
    if (!a.facts.hasText) continue;
    const g = groups.get(a.prompt) ?? [];
    g.push(a.facts);
    groups.set(a.prompt, g);
  }
  return groups;
}

/** The intervals of every figure of one group of answers (§6.6). */
export function groupIntervals(tracked: TrackedBrands, all: readonly PromptFacts[]): GroupIntervals {
  const grouped = byPrompt(all);
  const prompts = [...grouped.values()];
  const mentionedBy = (answers: AnswerFacts[], i: number) => answers.filter((f) => f.brands[i]?.position).length;
  const pairs = (answers: AnswerFacts[]) => answers.reduce((s, f) => s + f.brands.filter((b) => b.position).length, 0);
  const citationsOf = (answers: AnswerFacts[]) => answers.reduce((s, f) => s + f.citations.length, 0);
  let effectiveAnswers = 0;
  const brands = tracked.map((b, i): BrandIntervals => {
    const mention: ClusterCount[] = prompts.map((a) => ({ hits: mentionedBy(a, i), trials: a.length }));
    const voice: ClusterRatio[] = prompts.map((a) => ({ num: mentionedBy(a, i), den: pairs(a) }));
    const position: ClusterRatio[] = prompts.map((a) => ({
      num: a.reduce((s, f) => s + (f.brands[i]?.position ?? 0), 0),
      den: mentionedBy(a, i),
    }));
    const owned = (f: AnswerFacts) => f.citations.filter((c) => (b.role === 'brand' ? c.own : c.owner === b.name));
    const cited: ClusterCount[] = prompts.map((a) => ({
      hits: a.reduce((s, f) => s + owned(f).length, 0),
      trials: citationsOf(a),
    }));
    const rate = clusteredProportion(mention);
    if (i === 0) effectiveAnswers = rate.effectiveN;
    return {
      mentionRate: rate.interval,
      shareOfVoice: bootstrapRatio(voice),
      avgFirstMentionPosition: bootstrapRatio(position),
      citationShare: clusteredProportion(cited).interval,
    };
  });
  const domainShare = (domain: string): Interval | null =>
    clusteredProportion(
      prompts.map((a) => ({
        hits: a.reduce((s, f) => s + f.citations.filter((c) => c.domain === domain).length, 0),
        trials: citationsOf(a),
      })),
    ).interval;
  const domainCitationRate = (domain: string): Interval | null =>
    clusteredProportion(
      prompts.map((a) => ({
        hits: a.filter((f) => f.citations.some((c) => c.domain === domain)).length,
        trials: a.length,
      })),
    ).interval;
  const domainRetrievalRate = (domain: string): Interval | null =>
    clusteredProportion(
      prompts.map((a) => ({
        hits: a.filter((f) => f.retrievedDomains?.some((d) => d.domain === domain)).length,
        trials: a.filter((f) => f.retrievedDomains !== null).length,
      })),
    ).interval;
  const searchRate = clusteredProportion(
    prompts.map((a) => ({
      hits: a.filter((f) => f.searched === true).length,
      trials: a.filter((f) => f.searched !== null).length,
    })),
  ).interval;
  const counts = [...grouped.entries()].map(([prompt, answers]) => ({
    prompt,
    answers: answers.length,
    mentioning: tracked.map((_b, i) => mentionedBy(answers, i)),
  }));
  return {
    brands,
    domainShare,
    domainCitationRate,
    domainRetrievalRate,
    searchRate,
    prompts: prompts.length,
    effectiveAnswers,
    byPrompt: counts,
  };
}

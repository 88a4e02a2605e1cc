import type { ContradictionReason } from './contradiction.js';

/**
 * What the learned judge reads of one (claim, source) pair (docs/analysis.md#the-learned-judge). Every member is
 * measured on the page's best passage and its evidence window (the best-matching sentence and its neighbours); none
 * needs the page's text again, so a pair's features can be kept and a judge retrained from them alone.
 */
export interface PairFeatures {
  /** The lexical support score: the best of the passage's and the evidence window's (align.ts `lex`). */
  score: number;
  /** The best passage's score alone. */
  passageScore: number;
  /** IDF-weighted containment of the claim's words in the evidence window. */
  windowContainment: number;
  /** Containment of the claim's word bigrams (English) or character 4-grams (Korean) in the window. */
  windowNgrams: number;
  /** IDF-weighted containment of the claim in the page's best-matching sentence. */
  overlap: number;
  /** Whether the claim states numbers, and the share of them the window states. */
  hasNumbers: boolean;
  numberShare: number;
  /** A number or a name of the claim is nowhere in the window. */
  missingSpecific: boolean;
  /** The contradiction the rule found in the best sentence, whatever the overlap. */
  contradiction: ContradictionReason | null;
  /** The claim's content words, and how many of them the window lacks. */
  claimWords: number;
  unmatchedWords: number;
  /** Characters of the page's text, and where its best sentence sits in it (0 first, 1 last). */
  pageChars: number;
  position: number;
}

/** The vector the model reads, in this order; the weights file records the names so a stale file is refused. */
export const FEATURE_NAMES = [
  'score',
  'passageScore',
  'windowContainment',
  'windowNgrams',
  'overlap',
  'overlapSquared',
  'hasNumbers',
  'numberShare',
  'missingSpecific',
  'negation',
  'antonym',
  'numberOrDate',
  'name',
  'contradictionOverlap',
  'logClaimWords',
  'unmatchedShare',
  'logUnmatched',
] as const;

const flag = (b: boolean): number => (b ? 1 : 0);

export function featureVector(f: PairFeatures): number[] {
  const c = f.contradiction;
  const v: Record<(typeof FEATURE_NAMES)[number], number> = {
    score: f.score,
    passageScore: f.passageScore,
    windowContainment: f.windowContainment,
    windowNgrams: f.windowNgrams,
    overlap: f.overlap,
    overlapSquared: f.overlap * f.overlap,
    hasNumbers: flag(f.hasNumbers),
    numberShare: f.numberShare,
    missingSpecific: flag(f.missingSpecific),
    negation: flag(c === 'negation'),
    antonym: flag(c === 'antonym'),
    numberOrDate: flag(c === 'number' || c === 'date'),
    name: flag(c === 'name'),
    // A contradiction in a sentence that shares most of the claim is a strong signal; in an unrelated one, noise.
    contradictionOverlap: c === null ? 0 : f.overlap,
    logClaimWords: Math.log1p(f.claimWords),
    unmatchedShare: f.claimWords === 0 ? 0 : f.unmatchedWords / f.claimWords,
    logUnmatched: Math.log1p(f.unmatchedWords),
  };
  return FEATURE_NAMES.map((n) => v[n]);
}

export const NO_FEATURES: PairFeatures = Object.freeze({
  score: 0,
  passageScore: 0,
  windowContainment: 0,
  windowNgrams: 0,
  overlap: 0,
  hasNumbers: false,
  numberShare: 0,
  missingSpecific: false,
  contradiction: null,
  claimWords: 0,
  unmatchedWords: 0,
  pageChars: 0,
  position: 0,
});

import type { SourceInfluenceConfig } from '../../config.js';
import type { Contradiction, ContradictionReason } from './contradiction.js';
import { NO_FEATURES, type PairFeatures } from './features.js';

/**
 * What a judge says of one (claim, source) pair (docs/analysis.md#labelling-rubric): the label, the support score
 * it rests on, the evidence passage, the reason of a contradiction, and which judge said it.
 */
export type SupportLabel = 'supported' | 'partial' | 'unsupported' | 'contradicted';
export type JudgeName = 'lexical' | 'model';

export interface PairJudgement {
  label: SupportLabel;
  /** Lexical support in [0, 1] (the model's judgements map to fixed values); a contradiction keeps its overlap. */
  score: number;
  /** The page's sentences around the best match (or the snippet passage), null when the source gave no text. */
  evidence: string | null;
  /** Why a pair is contradicted; null otherwise. */
  reason: ContradictionReason | null;
  /** The changed piece on each side of a contradiction ("1998" / "1994"), null otherwise. */
  changed: { claim: string; page: string } | null;
  judge: JudgeName;
  /**
   * Calibrated probability that `label` is right (the learned judge's, docs/analysis.md#the-learned-judge); null
   * where no calibrated figure exists (a model judge's label, a contradiction only the rule can see).
   */
  confidence: number | null;
  /**
   * Expected support in [0, 1]: P(supported) + ½·P(partial), from the calibrated probabilities (or the label where
   * there are none). Attribution weights rest on it, so a doubtful label weighs less than a sure one.
   */
  expectedSupport: number;
  /**
   * What the label rests on, kept so a judge can be retrained or relabel without rerunning: the claim's containment
   * in the page's best clause, the contradiction the rule found there (whatever the overlap), and the learned
   * judge's features. Not in results.
   */
  basis: { overlap: number; candidate: Contradiction | null; missingSpecific: boolean; features: PairFeatures };
}

/**
 * The threshold judge's label (the previous release's, and the fallback for a language without a learned model):
 * contradicted when the rule found a contradiction in a sentence that shares enough of the
 * claim (minContradictionOverlap), else by the support thresholds τ_full and τ_part; a claim whose number or name
 * is nowhere in the evidence is at most partial, however much else matches.
 */
export function thresholdLabel(
  score: number,
  basis: PairJudgement['basis'],
  cfg: Pick<SourceInfluenceConfig, 'tauFull' | 'tauPartial' | 'judge'>,
): SupportLabel {
  if (basis.candidate && basis.overlap >= cfg.judge.minContradictionOverlap) return 'contradicted';
  if (score >= cfg.tauFull) return basis.missingSpecific ? 'partial' : 'supported';
  return score >= cfg.tauPartial ? 'partial' : 'unsupported';
}

export const UNSUPPORTED_EMPTY: PairJudgement = Object.freeze({
  label: 'unsupported',
  score: 0,
  evidence: null,
  reason: null,
  changed: null,
  judge: 'lexical',
  confidence: null,
  expectedSupport: 0,
  basis: Object.freeze({ overlap: 0, candidate: null, missingSpecific: false, features: NO_FEATURES }),
});

/** Supported or partial: the labels that count as support for attribution and for "the source supports it". */
export const supports = (l: SupportLabel): boolean => l === 'supported' || l === 'partial';

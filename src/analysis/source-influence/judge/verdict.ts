import type { SourceInfluenceConfig } from '../../config.js';
import type { Language } from '../../text/norm.js';
import { type PairJudgement, type SupportLabel, thresholdLabel } from './labels.js';
import { JUDGE_WEIGHTS, type JudgeWeights, learnedVerdict } from './learned.js';

export interface Verdict {
  label: SupportLabel;
  confidence: number | null;
  expectedSupport: number;
}

/**
 * The label of one (claim, source) pair: the learned judge's where the claim's language has a model, the thresholds
 * otherwise (then expected support is the score). The contradiction rule (contradiction.ts) is one of the model's
 * features; on real labelled pairs it is right about a contradiction only a third of the time (docs/analysis.md), so
 * it does not decide `contradicted` by itself, but a pair it flags is never called `supported`. For a model that
 * never saw `contradicted`, the rule decides that label, with a null confidence (nothing measured it).
 */
export function verdictOf(
  score: number,
  basis: PairJudgement['basis'],
  language: Language,
  cfg: Pick<SourceInfluenceConfig, 'tauFull' | 'tauPartial' | 'judge'>,
  weights: JudgeWeights = JUDGE_WEIGHTS,
): Verdict {
  const ruleSees = basis.candidate !== null && basis.overlap >= cfg.judge.minContradictionOverlap;
  const learned = cfg.judge.method === 'learned' ? learnedVerdict(basis.features, language, weights, ruleSees) : null;
  if (!learned) {
    const label = thresholdLabel(score, basis, cfg);
    return { label, confidence: null, expectedSupport: label === 'contradicted' ? 0 : score };
  }
  if (learned.probabilities.contradicted === undefined && ruleSees)
    return { label: 'contradicted', confidence: null, expectedSupport: 0 };
  const p = learned.probabilities;
  return {
    label: learned.label,
    confidence: learned.confidence,
    expectedSupport: learned.label === 'contradicted' ? 0 : (p.supported ?? 0) + 0.5 * (p.partial ?? 0),
  };
}

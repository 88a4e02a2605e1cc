import type { Language } from '../../text/norm.js';
import { FEATURE_NAMES, featureVector, type PairFeatures } from './features.js';
import type { SupportLabel } from './labels.js';
import shipped from './weights.json' with { type: 'json' };

/**
 * The learned judge (docs/analysis.md#the-learned-judge): per language, one-vs-rest logistic regressions over the
 * pair's features (features.ts), trained by `npm run train:judge` on real labelled pairs (bench/judge/) and shipped
 * as `weights.json`. A language's model knows the labels its training data has; where it has no `contradicted`, the
 * contradiction rule decides that label (labels.ts).
 *
 * Probabilities: each class's sigmoid, normalised, then the training priors restored (the model is trained on
 * class-balanced data, so that no label is learned as rare) and a temperature fitted on the training split. The label
 * is the most probable one (decide), its confidence that label's calibrated probability.
 */
export interface LanguageModel {
  classes: SupportLabel[];
  /** Standardisation of each feature (FEATURE_NAMES order). */
  mean: number[];
  scale: number[];
  /** Per class: the bias, then one weight per feature; σ(w·x) is the one-vs-rest score of the class. */
  weights: number[][];
  /** Class shares of the training rows (each set weighing the same), in `classes` order. */
  priors: number[];
  /**
   * The least calibrated P(supported) that is called `supported`; below it the next most probable label is given.
   * Fitted on the train split for the best macro-F1 with few contradictions called supported: on real pairs a
   * contradiction reuses the page's words as much as a restatement does, so a judge that reads words must be sure.
   */
  minSupported: number;
  temperature: number;
  trainedOn: { sets: string[]; rows: number };
}

export interface JudgeWeights {
  /** Changes whenever the weights do (a hash of the file's content without this member); results name it. */
  version: string;
  library: string;
  features: string[];
  models: Partial<Record<Language, LanguageModel>>;
}

export interface LearnedVerdict {
  label: SupportLabel;
  /** Calibrated probability of `label`. */
  confidence: number;
  /** Calibrated probability per label the model knows (the others are absent, not 0). */
  probabilities: Partial<Record<SupportLabel, number>>;
}

export const JUDGE_WEIGHTS = shipped as unknown as JudgeWeights;

const checked = new WeakSet<JudgeWeights>();

/**
 * Weights are refused when they were trained on another feature list than the code's. The check runs when weights
 * are first used, not when this module loads, so that `npm run train:judge` (which imports it) can replace a stale
 * file.
 */
export function checkWeights(w: JudgeWeights): JudgeWeights {
  if (checked.has(w)) return w;
  if (w.features.join() !== FEATURE_NAMES.join())
    throw new Error('judge weights were trained on other features: run npm run train:judge');
  checked.add(w);
  return w;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Balanced (decision) scores and calibrated probabilities of one feature vector. */
export function scoreVector(m: LanguageModel, x: readonly number[]): { balanced: number[]; calibrated: number[] } {
  const z = x.map((v, i) => (v - (m.mean[i] ?? 0)) / (m.scale[i] || 1));
  const raw = m.weights.map((w) => sigmoid(z.reduce((acc, v, i) => acc + v * (w[i + 1] ?? 0), w[0] ?? 0)));
  const balanced = normalise(raw);
  const withPriors = normalise(balanced.map((p, k) => p * (m.priors[k] ?? 0)));
  const tempered = normalise(withPriors.map((p) => Math.max(p, 1e-12) ** (1 / m.temperature)));
  return { balanced, calibrated: tempered };
}

/**
 * The index of the label given: the most probable, except that `supported` needs `minSupported` and is never given
 * when `notSupported` (the contradiction rule saw a contradiction: verdict.ts).
 */
export function decide(
  m: Pick<LanguageModel, 'minSupported' | 'classes'>,
  calibrated: readonly number[],
  notSupported = false,
): number {
  let k = 0;
  let best = -1;
  calibrated.forEach((p, i) => {
    if (m.classes[i] === 'supported' && (notSupported || p < m.minSupported)) return;
    if (p > best) {
      best = p;
      k = i;
    }
  });
  return k;
}

function normalise(v: number[]): number[] {
  const s = v.reduce((a, b) => a + b, 0);
  return s > 0 ? v.map((x) => x / s) : v.map(() => 1 / v.length);
}

/**
 * The model that judges a language's pairs: its own where real labelled pairs of that language trained one, else the
 * English model (Korean today: real-sets.ts says why), whose figures on that language are unmeasured
 * (`measuredIn`, and summary.judgeEvaluation in results).
 */
function modelFor(language: Language, weights: JudgeWeights = JUDGE_WEIGHTS): LanguageModel | null {
  return weights.models[language] ?? weights.models.en ?? null;
}

/** Whether the learned judge has been measured on real held-out pairs of this language. */
export function measuredIn(language: Language, weights: JudgeWeights = JUDGE_WEIGHTS): boolean {
  return weights.models[language] !== undefined;
}

export function learnedVerdict(
  f: PairFeatures,
  language: Language,
  weights: JudgeWeights = JUDGE_WEIGHTS,
  notSupported = false,
): LearnedVerdict | null {
  const m = modelFor(language, checkWeights(weights));
  if (!m) return null;
  const { calibrated } = scoreVector(m, featureVector(f));
  const k = decide(m, calibrated, notSupported);
  const probabilities: Partial<Record<SupportLabel, number>> = {};
  m.classes.forEach((c, i) => {
    probabilities[c] = calibrated[i] ?? 0;
  });
  const label = m.classes[k] ?? 'unsupported';
  return { label, confidence: calibrated[k] ?? 0, probabilities };
}

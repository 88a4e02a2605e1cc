import type { SourceInfluenceConfig } from '../../src/analysis/config.js';
import { expectedCalibrationError, type Scores, score } from '../../src/analysis/eval/scores.js';
import type { SupportLabel } from '../../src/analysis/source-influence/judge/labels.js';
import type { JudgeWeights } from '../../src/analysis/source-influence/judge/learned.js';
import { type FeatureRow, replay, replayThresholds } from './feature-rows.js';

/**
 * The figures of one real set's rows: the learned judge (with its expected calibration error over the pairs it gave
 * a confidence), the previous release's thresholds, and the majority class of the set's train split (of the
 * language's train rows for a set held out whole, with the set's own commonest label beside it).
 */
export interface SetFigures {
  set: string;
  language: 'en' | 'ko';
  pairs: number;
  /**
   * `learned`, `previous release`, `majority class` (and `majority class of the set's own labels` for a set held out
   * whole), or `model <name>` when a model was measured.
   */
  judges: Array<{ judge: string; scores: Scores; ece: number | null }>;
}

export function figuresOf(
  set: string,
  language: 'en' | 'ko',
  rows: readonly FeatureRow[],
  allRows: readonly FeatureRow[],
  cfg: SourceInfluenceConfig,
  weights: JudgeWeights,
): SetFigures {
  const verdicts = rows.map((r) => ({ r, v: replay(r, cfg, weights) }));
  const learned = score(
    verdicts.map(({ r, v }) => ({ gold: r.gold, predicted: v.label })),
    [],
  );
  const withConfidence = verdicts.filter(({ v }) => v.confidence !== null);
  const ece = expectedCalibrationError(
    withConfidence.map(({ r, v }) => ({ confidence: v.confidence ?? 0, correct: sameClass(r.gold, v.label) })),
  );
  const previous = score(
    rows.map((r) => ({ gold: r.gold, predicted: replayThresholds(r, cfg) })),
    [],
  );
  // A set held out whole (evaluation-only) has no train split: its baseline is the majority class of the language's
  // train rows, all a judge knows before it reads the set; the set's own commonest label is shown beside it.
  const ownTrain = allRows.filter((r) => r.set === set && r.split === 'train');
  const train = ownTrain.length > 0 ? ownTrain : allRows.filter((r) => r.language === language && r.split === 'train');
  const always = (label: SupportLabel) =>
    score(
      rows.map((r) => ({ gold: r.gold, predicted: label })),
      [],
    );
  const judges: SetFigures['judges'] = [
    { judge: 'learned', scores: learned, ece },
    { judge: 'previous release', scores: previous, ece: null },
    { judge: 'majority class', scores: always(majority(train)), ece: null },
  ];
  if (ownTrain.length === 0)
    judges.push({ judge: "majority class of the set's own labels", scores: always(majority(rows)), ece: null });
  return { set, language, pairs: rows.length, judges };
}

/** A confidence is the probability that the label is right; right is the same label (the four-way one). */
const sameClass = (gold: SupportLabel, predicted: SupportLabel): boolean => gold === predicted;

function majority(rows: readonly FeatureRow[]): SupportLabel {
  const n = new Map<SupportLabel, number>();
  for (const r of rows) n.set(r.gold, (n.get(r.gold) ?? 0) + 1);
  let best: SupportLabel = 'unsupported';
  for (const [l, c] of n) if (c > (n.get(best) ?? 0)) best = l;
  return best;
}

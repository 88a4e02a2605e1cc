import type { SupportLabel } from '../source-influence/judge/labels.js';

/**
 * The figures of the held-out evaluation (docs/analysis.md#evaluation-on-held-out-data), from gold and predicted
 * labels. Three-class scores fold `unsupported` and `contradicted` into "not supported".
 */
export const LABEL_ORDER: readonly SupportLabel[] = ['supported', 'partial', 'unsupported', 'contradicted'];
type Three = 'supported' | 'partial' | 'not_supported';

const three = (l: SupportLabel): Three => (l === 'supported' || l === 'partial' ? l : 'not_supported');

export interface PairOutcome {
  gold: SupportLabel;
  predicted: SupportLabel;
}

export interface ClaimOutcome {
  /** Gold: some page is `supported`. */
  hasSupport: boolean;
  /** Gold label of the page with the largest attribution weight; null when the claim was left unattributed. */
  topWeightedGold: SupportLabel | null;
  goldMiscited: boolean;
  predictedMiscited: boolean;
}

export interface Scores {
  pairs: number;
  claims: number;
  macroF1: number;
  supportedF1: number;
  /** Gold `contradicted` pairs predicted `supported`, over gold `contradicted` pairs (null when there are none). */
  contradictionsAsSupported: number | null;
  /** Claims with a supporting page whose top-weighted page supports them (supported or partial). */
  topWeightedSupports: number | null;
  miscitationRecall: number | null;
  miscitationPrecision: number | null;
  /** confusion[gold][predicted], in LABEL_ORDER. */
  confusion: number[][];
}

function f1(tp: number, fp: number, fn: number): number {
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

export function score(pairs: readonly PairOutcome[], claims: readonly ClaimOutcome[]): Scores {
  const classes: Three[] = ['supported', 'partial', 'not_supported'];
  const perClass = classes.map((c) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const p of pairs) {
      const g = three(p.gold) === c;
      const pr = three(p.predicted) === c;
      if (g && pr) tp++;
      else if (pr) fp++;
      else if (g) fn++;
    }
    return f1(tp, fp, fn);
  });
  const confusion = LABEL_ORDER.map((g) =>
    LABEL_ORDER.map((p) => pairs.filter((x) => x.gold === g && x.predicted === p).length),
  );
  const contradictions = pairs.filter((p) => p.gold === 'contradicted');
  const withSupport = claims.filter((c) => c.hasSupport);
  const miscited = claims.filter((c) => c.goldMiscited);
  const flagged = claims.filter((c) => c.predictedMiscited);
  return {
    pairs: pairs.length,
    claims: claims.length,
    macroF1: perClass.reduce((a, b) => a + b, 0) / classes.length,
    supportedF1: perClass[0] ?? 0,
    contradictionsAsSupported: ratio(
      contradictions.filter((p) => p.predicted === 'supported').length,
      contradictions.length,
    ),
    topWeightedSupports: ratio(
      withSupport.filter((c) => c.topWeightedGold === 'supported' || c.topWeightedGold === 'partial').length,
      withSupport.length,
    ),
    miscitationRecall: ratio(miscited.filter((c) => c.predictedMiscited).length, miscited.length),
    miscitationPrecision: ratio(flagged.filter((c) => c.goldMiscited).length, flagged.length),
    confusion,
  };
}

/**
 * Expected calibration error (Guo et al. 2017): the confidences binned in `bins` equal widths, and the mean gap
 * between each bin's accuracy and its mean confidence, weighted by the bin's share of pairs. Null without pairs.
 */
export function expectedCalibrationError(
  judged: ReadonlyArray<{ confidence: number; correct: boolean }>,
  bins = 10,
): number | null {
  if (judged.length === 0) return null;
  const sum = new Array<number>(bins).fill(0);
  const hits = new Array<number>(bins).fill(0);
  const n = new Array<number>(bins).fill(0);
  for (const j of judged) {
    const b = Math.min(bins - 1, Math.floor(j.confidence * bins));
    sum[b] = (sum[b] ?? 0) + j.confidence;
    hits[b] = (hits[b] ?? 0) + (j.correct ? 1 : 0);
    n[b] = (n[b] ?? 0) + 1;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) {
    const nb = n[b] ?? 0;
    if (nb > 0) ece += (nb / judged.length) * Math.abs((hits[b] ?? 0) / nb - (sum[b] ?? 0) / nb);
  }
  return ece;
}

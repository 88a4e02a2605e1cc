import type { SourceInfluenceConfig } from '../config.js';
import { analyzeCore } from '../source-influence/core.js';
import { supports, UNSUPPORTED_EMPTY, type PairJudgement } from '../source-influence/judge/labels.js';
import { isMiscited } from '../source-influence/metrics.js';
import type { SourceInfluenceInput } from '../source-influence/types.js';
import type { EvalItem, EvalSet, EvalSplit } from './eval-set.js';
import { score, type ClaimOutcome, type PairOutcome, type Scores } from './scores.js';
import { readPageRecord } from '../source-influence/page-record.js';

/**
 * Runs the SOURCE_INFLUENCE core (the same code path as a task, without the network) on every claim of an
 * evaluation set: the claim is a one-sentence answer citing its cited pages with markers, each of its pages a read
 * page. Predictions are the judge's labels per page, the attribution weights and the `miscited` flag.
 */

export interface ItemRun {
  item: EvalItem;
  pairs: PairOutcome[];
  /**
   * Per page: what the label rests on (score, clause overlap, the contradiction found, the learned judge's features)
   * and the judge's calibrated confidence, for calibration and training.
   */
  bases: Array<{ score: number; basis: PairJudgement['basis']; confidence: number | null; evidence: string | null }>;
  claim: ClaimOutcome;
  /** Units the claim was segmented into (1 for a one-sentence claim; the largest is judged). */
  units: number;
}

function runItem(set: EvalSet, item: EvalItem, cfg: SourceInfluenceConfig): ItemRun {
  const pages = item.sources.map((s) => set.pages.get(s.page));
  const markers = item.cited.map((c) => ` [${item.sources.findIndex((s) => s.page === c) + 1}]`).join('');
  const input: SourceInfluenceInput = {
    answer: `${item.claim}${markers}`,
    prompt: null,
    // Page ids make the URLs distinct even when two pages share an address (two parts of one article).
    citations: pages.map((p, k) => ({ url: `${p?.url ?? 'https://eval.invalid/'}#${item.sources[k]?.page}` })),
    analysis: null,
  };
  const records = pages.map((p, k) => readPageRecord(p?.text ?? '', input.citations[k]?.url ?? ''));
  const core = analyzeCore(input, records, cfg);
  let ui = 0;
  core.units.forEach((u, i) => {
    if (u.words > (core.units[ui]?.words ?? 0)) ui = i;
  });
  const unit = core.units[ui];
  const judgements = unit?.alignment.judgements ?? [];
  const pairs = item.sources.map((s, k) => ({ gold: s.label, predicted: judgements[k]?.label ?? 'unsupported' }));
  const weights = core.weights[ui] ?? [];
  let top = -1;
  weights.forEach((w, k) => {
    if (w > 0 && (top < 0 || w > (weights[top] ?? 0))) top = k;
  });
  const citedIdx = new Set(item.cited.map((c) => item.sources.findIndex((s) => s.page === c)));
  const goldMiscited =
    citedIdx.size > 0 &&
    ![...citedIdx].some((k) => supports(item.sources[k]?.label ?? 'unsupported')) &&
    item.sources.some((s, k) => !citedIdx.has(k) && s.label === 'supported');
  const bases = item.sources.map((_, k) => ({
    score: judgements[k]?.score ?? 0,
    basis: judgements[k]?.basis ?? UNSUPPORTED_EMPTY.basis,
    confidence: judgements[k]?.confidence ?? null,
    evidence: judgements[k]?.evidence ?? null,
  }));
  return {
    item,
    pairs,
    bases,
    units: core.units.length,
    claim: {
      hasSupport: item.sources.some((s) => s.label === 'supported'),
      topWeightedGold: top < 0 ? null : (item.sources[top]?.label ?? null),
      goldMiscited,
      predictedMiscited: unit ? isMiscited(unit, cfg) : false,
    },
  };
}

export interface SplitReport {
  split: EvalSplit | 'all';
  scores: Scores;
  runs: ItemRun[];
}

export function evaluate(set: EvalSet, split: EvalSplit | 'all', cfg: SourceInfluenceConfig): SplitReport {
  const runs = set.items.filter((i) => split === 'all' || i.split === split).map((i) => runItem(set, i, cfg));
  return {
    split,
    scores: score(
      runs.flatMap((r) => r.pairs),
      runs.map((r) => r.claim),
    ),
    runs,
  };
}

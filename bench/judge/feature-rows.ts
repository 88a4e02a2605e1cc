import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceInfluenceConfig } from '../../src/analysis/config.js';
import { EVALUATION_ONLY, type RealPair, type RealSplit } from '../../src/analysis/eval/real-sets.js';
import type { ContradictionReason } from '../../src/analysis/source-influence/judge/contradiction.js';
import type { PairFeatures } from '../../src/analysis/source-influence/judge/features.js';
import {
  type PairJudgement,
  type SupportLabel,
  thresholdLabel,
} from '../../src/analysis/source-influence/judge/labels.js';
import type { JudgeWeights } from '../../src/analysis/source-influence/judge/learned.js';
import { type Verdict, verdictOf } from '../../src/analysis/source-influence/judge/verdict.js';

/**
 * One judged real pair as the repository keeps it (bench/judge/features.jsonl): its set, id, split and gold label
 * (the sets' own annotations) and what the judge measured, never the claim's or the page's text, which some sets'
 * terms keep out of the repository. Training and the replayed figures read only these rows.
 */
export interface FeatureRow {
  set: string;
  id: string;
  split: RealSplit;
  language: 'en' | 'ko';
  gold: SupportLabel;
  score: number;
  overlap: number;
  missingSpecific: boolean;
  contradiction: ContradictionReason | null;
  features: PairFeatures;
}

const FEATURES_FILE = join(import.meta.dirname, 'features.jsonl');
export const WEIGHTS_FILE = join(
  import.meta.dirname,
  '..',
  '..',
  'src',
  'analysis',
  'source-influence',
  'judge',
  'weights.json',
);

export function rowOf(pair: RealPair, score: number, basis: PairJudgement['basis']): FeatureRow {
  return {
    set: pair.set,
    id: pair.id,
    split: pair.split,
    language: pair.language,
    gold: pair.gold,
    score: round(score),
    overlap: round(basis.overlap),
    missingSpecific: basis.missingSpecific,
    contradiction: basis.candidate?.reason ?? null,
    features: Object.fromEntries(
      Object.entries(basis.features).map(([k, v]) => [k, typeof v === 'number' ? round(v) : v]),
    ) as unknown as PairFeatures,
  };
}

/** Six decimals: the file stays readable and diffs small; a replayed label never sits that close to a boundary. */
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

export function readRows(path = FEATURES_FILE): FeatureRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as FeatureRow);
}

/**
 * The rows `npm run train:judge` reads: every kept row but those of the evaluation-only sets (real-sets.ts), which
 * training never reads, not even to print their figures. A train row of such a set is an error, not a row to skip.
 */
export function readTrainingRows(path = FEATURES_FILE): FeatureRow[] {
  const rows = readRows(path);
  const leaked = rows.find((r) => EVALUATION_ONLY.has(r.set) && r.split !== 'heldout');
  if (leaked) throw new Error(`${leaked.set} ${leaked.id}: an evaluation-only set has a ${leaked.split} row`);
  return rows.filter((r) => !EVALUATION_ONLY.has(r.set));
}

export function writeRows(rows: readonly FeatureRow[], path = FEATURES_FILE): void {
  writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
}

function basisOf(r: FeatureRow): PairJudgement['basis'] {
  return {
    overlap: r.overlap,
    candidate: r.contradiction ? { reason: r.contradiction, claim: '', page: '' } : null,
    missingSpecific: r.missingSpecific,
    features: r.features,
  };
}

/** The label the judge gives a kept row with these weights (the same decision as align.ts makes on the page). */
export function replay(r: FeatureRow, cfg: SourceInfluenceConfig, weights: JudgeWeights): Verdict {
  return verdictOf(r.score, basisOf(r), r.language, cfg, weights);
}

/** The previous release's label: the thresholds alone. */
export function replayThresholds(r: FeatureRow, cfg: SourceInfluenceConfig): SupportLabel {
  return thresholdLabel(r.score, basisOf(r), cfg);
}

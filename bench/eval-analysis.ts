import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ANALYSIS_DEFAULTS, type SourceInfluenceConfig } from '../src/analysis/config.js';
import { loadEvalSet, type EvalLanguage, type EvalSplit } from '../src/analysis/eval/eval-set.js';
import { evaluate } from '../src/analysis/eval/evaluate.js';
import { runRealPairs } from '../src/analysis/eval/real-evaluate.js';
import { judgePairsWithModel } from '../src/analysis/eval/model-judge-eval.js';
import {
  available,
  corporaDir,
  EVALUATION_ONLY,
  type RealPair,
  REAL_SETS,
  readRealSet,
  type RealSplit,
} from '../src/analysis/eval/real-sets.js';
import type { SupportLabel } from '../src/analysis/source-influence/judge/labels.js';
import { LABEL_ORDER, type Scores, score } from '../src/analysis/eval/scores.js';
import { JUDGE_WEIGHTS } from '../src/analysis/source-influence/judge/learned.js';
import { type FeatureRow, readRows, rowOf, writeRows } from './judge/feature-rows.js';
import { figuresOf, type SetFigures } from './judge/figures.js';
import { scriptArgs } from './cli-args.js';

/**
 * `npm run eval:analysis`: the support judge on real labelled sets (src/analysis/eval/real-sets.ts, read from fetched
 * snapshots), per set, on the held-out split (the figures docs/analysis.md reports) beside the previous release's
 * thresholds and a majority-class baseline; then our own written set as a unit-level check. `--extract` also writes
 * the judged pairs' features (bench/judge/features.jsonl) that `npm run train:judge` trains on. Progress goes to
 * stderr, the tables to stdout.
 */
const root = join(import.meta.dirname, '..');
const USAGE = `
npm run eval:analysis -- [options]
  --split heldout|train|all   which split of the real sets (default heldout)
  --sets NAME,…               only these real sets (default: every set whose snapshot is here)
  --extract                   also write the judged pairs' features to bench/judge/features.jsonl
  --model-url URL --model NAME  also judge with an OpenAI-compatible model (with --model-key KEY)
  --model-limit N             pairs per set for the model (default 300)
  --model-concurrency N       model calls at once (default 4)
  --model-timeout-ms MS       per model call
  --json                      the figures as JSON
  --corpora DIR               where the fetched snapshots are (default AEQ_CORPORA_DIR or ../.mirror)
  --dir DIR                   our own written set (default test/fixtures/analysis/eval)
`;
const values = scriptArgs(USAGE, {
  split: { type: 'string', default: 'heldout' },
  sets: { type: 'string' },
  extract: { type: 'boolean', default: false },
  'model-url': { type: 'string' },
  model: { type: 'string' },
  'model-key': { type: 'string' },
  'model-limit': { type: 'string', default: '300' },
  // A model on a CPU answers one call at a time, and a call of 10 pairs can take longer than the service's 30 s.
  'model-concurrency': { type: 'string', default: '4' },
  'model-timeout-ms': { type: 'string', default: String(ANALYSIS_DEFAULTS.si.model.timeoutMs) },
  json: { type: 'boolean', default: false },
  corpora: { type: 'string', default: corporaDir(root) },
  dir: { type: 'string', default: join(root, 'test', 'fixtures', 'analysis', 'eval') },
});
const split = values.split as RealSplit | 'all';
if (!['heldout', 'train', 'all'].includes(split)) {
  process.stderr.write('--split must be heldout, train or all\n');
  process.exit(2);
}
const wanted = values.sets?.split(',').map((s) => s.trim());
const unknown = wanted?.filter((w) => !REAL_SETS.some((s) => s.name === w)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`unknown set(s): ${unknown.join(', ')}; known: ${REAL_SETS.map((s) => s.name).join(', ')}\n`);
  process.exit(2);
}
const cfg: SourceInfluenceConfig = ANALYSIS_DEFAULTS.si;
/** Our own set's calibration split plays the part of the real sets' train split. */
const ownSplit: EvalSplit | 'all' = split === 'train' ? 'calibration' : split;
const progress = (name: string) => (done: number, total: number) => {
  if (process.stderr.isTTY) process.stderr.write(`\r${name}: ${done}/${total}`);
  else if (done % 1000 === 0) process.stderr.write(`${name}: ${done}/${total}\n`);
};
const f3 = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));

const modelUrl = values['model-url'];
if ((modelUrl === undefined) !== (values.model === undefined)) {
  process.stderr.write('--model-url and --model go together\n');
  process.exit(2);
}
const modelLimit = Number(values['model-limit']);
if (!Number.isInteger(modelLimit) || modelLimit < 1) {
  process.stderr.write('--model-limit must be a positive integer\n');
  process.exit(2);
}
const modelConcurrency = Number(values['model-concurrency']);
const modelTimeoutMs = Number(values['model-timeout-ms']);
if (!Number.isInteger(modelConcurrency) || modelConcurrency < 1 || modelConcurrency > 64) {
  process.stderr.write('--model-concurrency must be an integer from 1 to 64\n');
  process.exit(2);
}
if (!Number.isInteger(modelTimeoutMs) || modelTimeoutMs < 1) {
  process.stderr.write('--model-timeout-ms must be a positive integer\n');
  process.exit(2);
}

const rows: FeatureRow[] = [];
/** Held-out pairs with their evidence window, the model judge's input (only kept when a model is measured). */
const modelInputs: ModelInput[] = [];
const missing: string[] = [];
for (const set of REAL_SETS) {
  if (wanted && !wanted.includes(set.name)) continue;
  if (!available(values.corpora, set)) {
    missing.push(`${set.name} (fetch github:${set.repo})`);
    continue;
  }
  // Every split is judged: the majority-class baseline reads the train split's labels.
  const pairs = readRealSet(values.corpora, set);
  const started = Date.now();
  const runs = runRealPairs(pairs, cfg, progress(set.name));
  process.stderr.write(
    `${process.stderr.isTTY ? '\r' : ''}${set.name}: ${runs.length} pairs in ${Date.now() - started} ms\n`,
  );
  for (const { pair, run } of runs) {
    const b = run.bases[0];
    if (b) rows.push(rowOf(pair, b.score, b.basis));
    if (modelUrl && b && (split === 'all' || pair.split === split))
      modelInputs.push({ set: set.name, gold: pair.gold, claim: pair.claim, evidence: b.evidence, pair });
  }
}
if (values.extract) {
  // A set not measured in this run (left out by --sets, or no snapshot here) keeps the rows the file has for it.
  const measured = new Set(rows.map((r) => r.set));
  const kept = readRows().filter((r) => !measured.has(r.set));
  const merged = REAL_SETS.flatMap((s) => [...rows, ...kept].filter((r) => r.set === s.name));
  writeRows(merged);
  process.stderr.write(
    `wrote ${merged.length} rows to bench/judge/features.jsonl (${rows.length} measured in this run)\n`,
  );
}

const figures: SetFigures[] = [];
for (const set of REAL_SETS) {
  const mine = rows.filter((r) => r.set === set.name && (split === 'all' || r.split === split));
  if (mine.length > 0) figures.push(figuresOf(set.name, set.language, mine, rows, cfg, JUDGE_WEIGHTS));
}

const own = ownSet();
const modelFigures = modelUrl ? await measureModel(modelUrl, values.model ?? '') : [];
figures.push(...modelFigures);
if (values.json) {
  process.stdout.write(`${JSON.stringify({ weights: JUDGE_WEIGHTS.version, real: figures, own, missing }, null, 2)}\n`);
} else {
  process.stdout.write(`${report(figures, own)}\n`);
}

function report(fs: SetFigures[], ownScores: Record<string, Scores>): string {
  const out = [
    `Support judge on real labelled sets, ${split} split, weights ${JUDGE_WEIGHTS.version}, ` +
      `${new Date().toISOString().slice(0, 10)}`,
    '',
    '| set | lang | pairs | judge | macro-F1 | supported F1 | contradictions → supported | ECE |',
    '|---|---|---:|---|---:|---:|---:|---:|',
  ];
  for (const f of fs)
    for (const j of f.judges)
      out.push(
        `| ${f.set} | ${f.language} | ${f.pairs} | ${j.judge} | ${f3(j.scores.macroF1)} ` +
          `| ${f3(j.scores.supportedF1)} ` +
          `| ${f3(j.scores.contradictionsAsSupported)} | ${f3(j.ece)} |`,
      );
  const untouched = fs.filter((f) => EVALUATION_ONLY.has(f.set)).map((f) => f.set);
  if (untouched.length > 0)
    out.push('', `Evaluation only (held out whole, never read by training): ${[...new Set(untouched)].join(', ')}`);
  if (missing.length > 0) out.push('', `Not run (no snapshot): ${missing.join('; ')}`);
  if (!modelUrl)
    out.push(
      '',
      'The model judge: unmeasured in this run (no --model-url); docs/analysis.md#the-model-judge says how a ' +
        'deployment measures its own.',
    );
  for (const f of fs) out.push('', confusion(`${f.set}: gold \\ learned`, f.judges[0]?.scores));
  out.push(
    '',
    `Our own written set (test/fixtures/analysis/eval, ${ownSplit} split): a unit-level check, not a quality claim`,
    '',
    '| lang | claims | pairs | macro-F1 | supported F1 | contradictions → supported |',
    '|---|---:|---:|---:|---:|---:|',
    ...Object.entries(ownScores).map(
      ([l, s]) =>
        `| ${l} | ${s.claims} | ${s.pairs} | ${f3(s.macroF1)} | ${f3(s.supportedF1)} ` +
        `| ${f3(s.contradictionsAsSupported)} |`,
    ),
  );
  return out.join('\n');
}

interface ModelInput {
  set: string;
  gold: SupportLabel;
  claim: string;
  evidence: string | null;
  pair: RealPair;
}

/**
 * The model judge on the first `--model-limit` held-out pairs of each set (by id hash: a fixed sample), reading the
 * evidence window the lexical judge chose, as the service sends it. A pair the model did not judge counts as
 * `unsupported` and is reported.
 */
async function measureModel(baseUrl: string, model: string): Promise<SetFigures[]> {
  const out: SetFigures[] = [];
  for (const set of REAL_SETS) {
    const mine = modelInputs
      .filter((m) => m.set === set.name && m.evidence !== null)
      .sort((a, b) => hashOf(a.pair.id).localeCompare(hashOf(b.pair.id)))
      .slice(0, modelLimit);
    if (mine.length === 0) continue;
    const started = Date.now();
    const outcomes = await judgePairsWithModel(
      mine.map((m, i) => ({ id: String(i), claim: m.claim, evidence: m.evidence ?? '', language: set.language })),
      {
        baseUrl,
        model,
        apiKey: values['model-key'],
        concurrency: modelConcurrency,
        timeoutMs: modelTimeoutMs,
        onProgress: progress(`${set.name} (model)`),
      },
    );
    let tokens = 0;
    let failed = 0;
    let firstError: string | null = null;
    const pairs = mine.map((m, i) => {
      const o = outcomes.get(String(i));
      tokens += o?.tokens ?? 0;
      if (!o || 'error' in o) {
        failed++;
        firstError ??= o ? o.error : 'no answer';
        return { gold: m.gold, predicted: 'unsupported' as SupportLabel };
      }
      return { gold: m.gold, predicted: o.label };
    });
    const ms = Date.now() - started;
    // Throughput is what a deployment plans with: pairs (claim, passage) a minute at this concurrency.
    process.stderr.write(
      `${set.name} (model ${model}): ${mine.length} pairs, ${failed} not judged, ${tokens} tokens, ${ms} ms ` +
        `(${((mine.length * 60_000) / Math.max(ms, 1)).toFixed(1)} pairs/min at concurrency ${modelConcurrency})` +
        `${firstError ? ` (first failure: ${firstError})` : ''}\n`,
    );
    out.push({
      set: set.name,
      language: set.language,
      pairs: mine.length,
      judges: [
        { judge: `model ${model}${failed > 0 ? ` (${failed} not judged)` : ''}`, scores: score(pairs, []), ece: null },
      ],
    });
  }
  return out;
}

function hashOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

function confusion(title: string, s: Scores | undefined): string {
  if (!s) return '';
  const rule = `|---|${LABEL_ORDER.map(() => '---:').join('|')}|`;
  const head = `| ${title} | ${LABEL_ORDER.join(' | ')} |\n${rule}`;
  return [head, ...LABEL_ORDER.map((g, i) => `| ${g} | ${(s.confusion[i] ?? []).join(' | ')} |`)].join('\n');
}

function ownSet(): Record<string, Scores> {
  const out: Record<string, Scores> = {};
  for (const lang of ['en', 'ko'] as EvalLanguage[]) {
    if (!existsSync(join(values.dir, lang, 'items.jsonl'))) continue;
    const r = evaluate(loadEvalSet(values.dir, lang), ownSplit, cfg);
    out[lang] = score(
      r.runs.flatMap((x) => x.pairs),
      r.runs.map((x) => x.claim),
    );
  }
  return out;
}

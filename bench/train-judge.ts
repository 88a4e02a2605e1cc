import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import LogisticRegression from 'ml-logistic-regression';
import { scriptArgs } from './cli-args.js';
import { Matrix } from 'ml-matrix';
import { ANALYSIS_DEFAULTS } from '../src/analysis/config.js';
import { FEATURE_NAMES, featureVector } from '../src/analysis/source-influence/judge/features.js';
import type { SupportLabel } from '../src/analysis/source-influence/judge/labels.js';
import { expectedCalibrationError, score } from '../src/analysis/eval/scores.js';
import {
  decide,
  type JudgeWeights,
  type LanguageModel,
  scoreVector,
} from '../src/analysis/source-influence/judge/learned.js';
import { type FeatureRow, readTrainingRows, WEIGHTS_FILE } from './judge/feature-rows.js';
import { figuresOf } from './judge/figures.js';

/**
 * `npm run train:judge`: the learned judge's weights (src/analysis/source-influence/judge/weights.json) from the kept
 * features of the real sets' train split (bench/judge/features.jsonl; `npm run eval:analysis -- --extract` writes
 * it from the fetched snapshots); the evaluation-only sets' rows are not read at all (readTrainingRows).
 * Deterministic: full-batch gradient descent from zero weights on rows in file order, so the same rows give the same
 * file. docs/analysis.md#the-learned-judge describes the model; the held-out figures
 * printed at the end are the ones `npm run eval:analysis` reports. `--cv` cross-validates on the train split alone
 * (5 folds) and prints no held-out figure: every choice of features and training is made by it.
 *
 * The model: ml-logistic-regression (mljs), one-vs-rest logistic regressions; chosen because it is small, pure
 * JavaScript, trains deterministically and its weights are a plain matrix we evaluate ourselves at run time (the
 * service does not load the library).
 */
const USAGE = `
npm run train:judge -- [options]
  --steps N    gradient steps of each regression (default 4000)
  --out FILE   where the weights go (default src/analysis/source-influence/judge/weights.json)
  --cv         only cross-validate on the train rows (5 folds): figures, no weights written, no held-out figure
`;
const values = scriptArgs(USAGE, {
  steps: { type: 'string', default: '4000' },
  out: { type: 'string', default: WEIGHTS_FILE },
  cv: { type: 'boolean', default: false },
});
const steps = Number(values.steps);
if (!Number.isInteger(steps) || steps < 1) {
  process.stderr.write(`--steps must be a positive integer\n\n${USAGE.trim()}\n`);
  process.exit(2);
}

export const LIBRARY = 'ml-logistic-regression@2.0.0';
/**
 * The decision's bound on contradictions called supported, on the train rows: below the 10 % the held-out split is
 * held to, because a bound met exactly on the rows it was fitted on is exceeded on new ones.
 */
const MAX_CONTRADICTIONS_SUPPORTED = 0.08;
/** Folds of `--cv`. */
const FOLDS = 5;

/**
 * Every (set, label) cell of a language's train rows is repeated, in order, up to the size of the largest cell: each
 * set and each label weighs the same, so neither the largest set nor the commonest label sets the decision.
 */
function balanced(rows: readonly FeatureRow[]): FeatureRow[] {
  const cells = new Map<string, FeatureRow[]>();
  for (const r of rows) {
    const k = `${r.set}\u0000${r.gold}`;
    const c = cells.get(k) ?? [];
    c.push(r);
    cells.set(k, c);
  }
  const target = Math.max(...[...cells.values()].map((c) => c.length));
  const out: FeatureRow[] = [];
  for (const c of cells.values()) for (let i = 0; i < target; i++) out.push(c[i % c.length] as FeatureRow);
  return out;
}

function trainLanguage(rows: readonly FeatureRow[]): LanguageModel {
  const classes = [...new Set(rows.map((r) => r.gold))].sort() as SupportLabel[];
  const train = balanced(rows);
  const xs = train.map((r) => featureVector(r.features));
  const dims = FEATURE_NAMES.length;
  const mean = Array.from({ length: dims }, (_, i) => xs.reduce((a, x) => a + (x[i] ?? 0), 0) / xs.length);
  const scale = Array.from({ length: dims }, (_, i) => {
    const v = xs.reduce((a, x) => a + ((x[i] ?? 0) - (mean[i] ?? 0)) ** 2, 0) / xs.length;
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  const X = new Matrix(xs.map((x) => [1, ...x.map((v, i) => (v - (mean[i] ?? 0)) / (scale[i] ?? 1))]));
  const Y = Matrix.columnVector(train.map((r) => classes.indexOf(r.gold)));
  // The library sums the gradient over rows: a step of 0.5/n is a step of 0.5 on the mean gradient.
  const lr = new LogisticRegression({ numSteps: steps, learningRate: 0.5 / train.length });
  lr.train(X, Y);
  // The library's classifier k scores "not class k" (its one-vs-rest target is 0 for the class): negated, σ(w·x)
  // is the score of class k.
  const weights = lr.classifiers.map((c) => c.weights.to1DArray().map((w) => -w));
  const sets = [...new Set(rows.map((r) => r.set))].sort();
  // Each set weighs the same in the priors and the fits below: no one set's label mix is taken for the world's.
  const setWeight = new Map(sets.map((s) => [s, 1 / (sets.length * rows.filter((r) => r.set === s).length)]));
  const priors = classes.map((c) => rows.reduce((a, r) => a + (r.gold === c ? (setWeight.get(r.set) ?? 0) : 0), 0));
  const model: LanguageModel = {
    classes,
    mean: mean.map(round),
    scale: scale.map(round),
    weights: weights.map((w) => w.map(round)),
    priors: priors.map(round),
    minSupported: 0,
    temperature: 1,
    trainedOn: { sets, rows: rows.length },
  };
  model.temperature = fitTemperature(model, rows, setWeight);
  model.minSupported = fitMinSupported(model, rows);
  return model;
}

/**
 * The least P(supported) that is called supported (0–0.95 by 0.01): the best mean four-label macro-F1 over the
 * language's sets on their train rows, among values that call at most MAX_CONTRADICTIONS_SUPPORTED of any set's
 * contradictions supported.
 */
function fitMinSupported(m: LanguageModel, rows: readonly FeatureRow[]): number {
  const calibratedOf = rows.map((r) => scoreVector(m, featureVector(r.features)).calibrated);
  const minOverlap = ANALYSIS_DEFAULTS.si.judge.minContradictionOverlap;
  const ruleSees = rows.map((r) => r.contradiction !== null && r.overlap >= minOverlap);
  const sets = [...new Set(rows.map((r) => r.set))];
  let best = { objective: -1, minSupported: 0 };
  for (let t = 0; t <= 95; t++) {
    const minSupported = t / 100;
    const predicted = calibratedOf.map(
      (p, k) => m.classes[decide({ minSupported, classes: m.classes }, p, ruleSees[k])] as SupportLabel,
    );
    let objective = 0;
    let allowed = true;
    for (const set of sets) {
      const idx = rows.flatMap((r, k) => (r.set === set ? [k] : []));
      const s = score(
        idx.map((k) => ({ gold: (rows[k] as FeatureRow).gold, predicted: predicted[k] as SupportLabel })),
        [],
      );
      if ((s.contradictionsAsSupported ?? 0) > MAX_CONTRADICTIONS_SUPPORTED) allowed = false;
      objective += labelMacroF1(s.confusion) / sets.length;
    }
    if (allowed && objective > best.objective + 1e-9) best = { objective, minSupported };
  }
  return best.minSupported;
}

/**
 * The temperature (0.25–4) whose calibrated probabilities give the train rows the least negative log-likelihood, each
 * set weighing the same.
 */
function fitTemperature(m: LanguageModel, rows: readonly FeatureRow[], setWeight: Map<string, number>): number {
  let best = { t: 1, nll: Number.POSITIVE_INFINITY };
  for (let t = 0.25; t <= 4.0001; t += 0.05) {
    const cand = { ...m, temperature: round(t) };
    let nll = 0;
    for (const r of rows) {
      const p = scoreVector(cand, featureVector(r.features)).calibrated[m.classes.indexOf(r.gold)] ?? 0;
      nll -= (setWeight.get(r.set) ?? 0) * Math.log(Math.max(p, 1e-12));
    }
    if (nll < best.nll - 1e-9) best = { t: round(t), nll };
  }
  return best.t;
}

/**
 * Macro-F1 over the four labels that occur in the gold (confusion[gold][predicted] in LABEL_ORDER): unlike the
 * three-class score it counts calling a supported pair contradicted as the error it is for a reader.
 */
function labelMacroF1(confusion: number[][]): number {
  const f1s: number[] = [];
  confusion.forEach((row, k) => {
    const gold = row.reduce((a, b) => a + b, 0);
    if (gold === 0) return;
    const tp = row[k] ?? 0;
    const predicted = confusion.reduce((a, r) => a + (r[k] ?? 0), 0);
    f1s.push(tp === 0 ? 0 : (2 * tp) / (gold + predicted));
  });
  return f1s.length === 0 ? 0 : f1s.reduce((a, b) => a + b, 0) / f1s.length;
}

const round = (x: number): number => Math.round(x * 1e9) / 1e9;

const f3 = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
// Never the evaluation-only sets' rows (real-sets.ts): their held-out figures are untouched by every choice here.
const all = readTrainingRows();
if (values.cv) {
  crossValidate();
  process.exit(0);
}
const models: JudgeWeights['models'] = {};
for (const language of ['en', 'ko'] as const) {
  const rows = all.filter((r) => r.language === language && r.split === 'train');
  if (rows.length === 0) continue;
  const started = Date.now();
  models[language] = trainLanguage(rows);
  process.stderr.write(`${language}: ${rows.length} train rows, ${Date.now() - started} ms\n`);
}
const body = { library: LIBRARY, features: [...FEATURE_NAMES], models };
const version = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12);
const weights: JudgeWeights = { version, ...body };
const text = `${JSON.stringify(weights, null, 2)}\n`;
writeFileSync(values.out, text);
process.stderr.write(`wrote ${values.out} (version ${version})\n`);

const cfg = ANALYSIS_DEFAULTS.si;
for (const set of [...new Set(all.map((r) => r.set))]) {
  const held = all.filter((r) => r.set === set && r.split === 'heldout');
  const f = figuresOf(set, held[0]?.language ?? 'en', held, all, cfg, weights);
  for (const j of f.judges)
    process.stdout.write(
      `${set} heldout ${j.judge}: macro-F1 ${f3(j.scores.macroF1)} supported-F1 ${f3(j.scores.supportedF1)} ` +
        `contradictions→supported ${f3(j.scores.contradictionsAsSupported)} ECE ${f3(j.ece)}\n`,
    );
}

/**
 * The group a row's fold is drawn by: a Factcheck-GPT claim's pairs (`c12-e3`, `c12-e5`) share one, so no claim is
 * on both sides of a fold; in the other sets every pair is its own group.
 */
function groupOf(r: FeatureRow): string {
  return `${r.set}\u0000${r.set === 'factcheck-gpt' ? (r.id.split('-')[0] ?? r.id) : r.id}`;
}

/** A fixed fold per group (a hash of it), so the same rows give the same folds on every run and machine. */
function foldOf(r: FeatureRow): number {
  return createHash('sha256').update(groupOf(r)).digest().readUInt32BE(0) % FOLDS;
}

/**
 * `--cv`: the figures every choice of features and training is made by, from the train split alone. Each fold is
 * predicted by a model trained the same way (balancing, temperature, least P(supported)) on the other folds, with
 * the decision verdict.ts makes; the held folds' labels are pooled per set. The held-out split is not read.
 */
function crossValidate(): void {
  const minOverlap = ANALYSIS_DEFAULTS.si.judge.minContradictionOverlap;
  const train = all.filter((r) => r.split === 'train');
  const predicted = new Map<FeatureRow, { label: SupportLabel; confidence: number | null }>();
  for (const language of ['en', 'ko'] as const) {
    const rows = train.filter((r) => r.language === language);
    for (let fold = 0; fold < FOLDS; fold++) {
      const fit = rows.filter((r) => foldOf(r) !== fold);
      const held = rows.filter((r) => foldOf(r) === fold);
      if (fit.length === 0 || held.length === 0) continue;
      const m = trainLanguage(fit);
      for (const r of held) {
        const ruleSees = r.contradiction !== null && r.overlap >= minOverlap;
        const { calibrated } = scoreVector(m, featureVector(r.features));
        const k = decide(m, calibrated, ruleSees);
        predicted.set(
          r,
          !m.classes.includes('contradicted') && ruleSees
            ? { label: 'contradicted', confidence: null }
            : { label: m.classes[k] as SupportLabel, confidence: calibrated[k] ?? 0 },
        );
      }
      process.stderr.write(`${language} fold ${fold + 1}/${FOLDS}\n`);
    }
  }
  for (const set of [...new Set(train.map((r) => r.set))]) {
    const rows = train.filter((r) => r.set === set && predicted.has(r));
    const s = score(
      rows.map((r) => ({ gold: r.gold, predicted: predicted.get(r)?.label ?? 'unsupported' })),
      [],
    );
    const ece = expectedCalibrationError(
      rows.flatMap((r) => {
        const p = predicted.get(r);
        return p && p.confidence !== null ? [{ confidence: p.confidence, correct: p.label === r.gold }] : [];
      }),
    );
    process.stdout.write(
      `${set} cv (${rows.length} train pairs): macro-F1 ${f3(s.macroF1)} supported-F1 ${f3(s.supportedF1)} ` +
        `contradictions→supported ${f3(s.contradictionsAsSupported)} ECE ${f3(ece)}\n`,
    );
  }
}

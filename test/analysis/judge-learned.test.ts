import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { figuresOf } from '../../bench/judge/figures.js';
import { readRows, readTrainingRows, rowOf, WEIGHTS_FILE } from '../../bench/judge/feature-rows.js';
import { ANALYSIS_DEFAULTS } from '../../src/analysis/config.js';
import { runRealPairs } from '../../src/analysis/eval/real-evaluate.js';
import { available, corporaDir, EVALUATION_ONLY, REAL_SETS, readRealSet } from '../../src/analysis/eval/real-sets.js';
import { analyzeSourceInfluence } from '../../src/analysis/source-influence/analyze.js';
import { FEATURE_NAMES } from '../../src/analysis/source-influence/judge/features.js';
import { checkWeights, JUDGE_WEIGHTS } from '../../src/analysis/source-influence/judge/learned.js';
import { readPageRecord } from '../../src/analysis/source-influence/page-record.js';
import { startSimulator } from '../../src/sandbox/server.js';

const execFileAsync = promisify(execFile);

/**
 * The learned judge (docs/analysis.md#the-learned-judge): its figures on the held-out part of real labelled sets,
 * replayed from the features the repository keeps (bench/judge/features.jsonl) with the shipped weights; the
 * features are what the code measures (re-measured from the fetched snapshots where this machine has them); the
 * training is deterministic; and a result carries each label's calibrated confidence, the expected support its
 * weight rests on, and the weights' version.
 */
const root = join(import.meta.dirname, '..', '..');
const cfg = ANALYSIS_DEFAULTS.si;
const rows = readRows();
const sets = [...new Set(rows.map((r) => r.set))];

describe('held-out figures of the shipped weights, per real set', () => {
  const figures = sets.map((set) => {
    const held = rows.filter((r) => r.set === set && r.split === 'heldout');
    return figuresOf(set, held[0]?.language ?? 'en', held, rows, cfg, JUDGE_WEIGHTS);
  });
  const judgeOf = (f: (typeof figures)[number], name: string) => f.judges.find((j) => j.judge === name);

  it('covers every real set, with a held-out part nobody trained on', () => {
    expect(sets.sort()).toEqual(REAL_SETS.map((s) => s.name).sort());
    for (const set of sets) {
      const train = rows.filter((r) => r.set === set && r.split === 'train');
      const held = rows.filter((r) => r.set === set && r.split === 'heldout');
      expect(held.length, set).toBeGreaterThan(100);
      // No pair (and, for a set of claims against several pages, no claim) is on both sides.
      const trainIds = new Set(train.map((r) => r.id.replace(/-e\d+$/, '')));
      expect(
        held.filter((r) => trainIds.has(r.id.replace(/-e\d+$/, ''))),
        set,
      ).toEqual([]);
    }
    // A language has a model exactly when real train rows of it exist (Korean has none: real-sets.ts says why).
    for (const lang of ['en', 'ko'] as const) {
      const train = rows.filter((r) => r.language === lang && r.split === 'train').length;
      expect(JUDGE_WEIGHTS.models[lang]?.trainedOn.rows ?? 0, lang).toBe(train);
    }
    expect(JUDGE_WEIGHTS.models.en).toBeDefined();
  });

  // The bar is held on the sets the judge was made with; an evaluation-only set is reported as it came out
  // (below), since a bar checked on it would make it a set the judge is tuned against.
  it.each(sets.filter((s) => !EVALUATION_ONLY.has(s)))(
    '%s: above the majority class and the previous release, calibrated',
    (set) => {
      const f = figures.find((x) => x.set === set);
      if (!f) throw new Error(set);
      const learned = judgeOf(f, 'learned');
      const previous = judgeOf(f, 'previous release');
      const majority = judgeOf(f, 'majority class');
      expect(learned?.scores.macroF1).toBeGreaterThan(majority?.scores.macroF1 ?? 1);
      expect(learned?.scores.macroF1).toBeGreaterThan(previous?.scores.macroF1 ?? 1);
      expect(learned?.scores.supportedF1).toBeGreaterThan(previous?.scores.supportedF1 ?? 1);
      // A set with contradictions: at most one in ten called supported.
      if (learned?.scores.contradictionsAsSupported !== null)
        expect(learned?.scores.contradictionsAsSupported).toBeLessThanOrEqual(0.1);
      expect(learned?.ece).not.toBeNull();
      expect(learned?.ece).toBeLessThan(0.2);
    },
  );
});

describe('the untouched set: evaluation only, never read by training', () => {
  const untouched = REAL_SETS.filter((s) => s.evaluationOnly);
  const tmp = mkdtempSync(join(tmpdir(), 'aeq-untouched-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('is held out whole, and the train rows hold no pair of it', () => {
    expect(untouched.map((s) => s.name)).toEqual(['expertqa-gs']);
    for (const set of untouched) {
      const mine = rows.filter((r) => r.set === set.name);
      expect(mine.length, set.name).toBe(864);
      expect(
        mine.filter((r) => r.split !== 'heldout'),
        set.name,
      ).toEqual([]);
      expect(
        set.files.every((f) => f.split === 'heldout'),
        set.name,
      ).toBe(true);
      const ids = new Set(mine.map((r) => r.id));
      expect(readTrainingRows().filter((r) => r.set === set.name || ids.has(r.id))).toEqual([]);
      for (const m of Object.values(JUDGE_WEIGHTS.models)) expect(m.trainedOn.sets).not.toContain(set.name);
    }
  });

  it('is refused to training if a row of it were ever marked train', () => {
    const path = join(tmp, 'features.jsonl');
    const flipped = rows.map((r) => (EVALUATION_ONLY.has(r.set) ? { ...r, split: 'train' } : r));
    writeFileSync(path, `${flipped.map((r) => JSON.stringify(r)).join('\n')}\n`);
    expect(() => readTrainingRows(path)).toThrow(/evaluation-only/);
  });

  it('is not read by npm run train:judge, not even for the figures it prints', () => {
    const stdout = execFileSync('npx', ['tsx', 'bench/train-judge.ts', '--steps', '20', '--out', join(tmp, 'w.json')], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(stdout).toMatch(/wice-dev heldout/);
    for (const set of untouched) expect(stdout).not.toContain(set.name);
    const written = JSON.parse(readFileSync(join(tmp, 'w.json'), 'utf8')) as typeof JUDGE_WEIGHTS;
    for (const m of Object.values(written.models))
      for (const set of untouched) expect(m.trainedOn.sets).not.toContain(set.name);
  }, 120_000);

  // Recorded from the one run of `npm run eval:analysis` on this set with weights a964c03419f7 (docs/analysis.md,
  // "Evaluation on held-out data"). New weights move these figures: then the docs must give the new ones and say
  // whether the set is still untouched (read by no choice of the judge).
  it('gives the figures docs/analysis.md records for the shipped weights', () => {
    const held = rows.filter((r) => r.set === 'expertqa-gs');
    const f = figuresOf('expertqa-gs', 'en', held, rows, cfg, JUDGE_WEIGHTS);
    const by = (name: string) => f.judges.find((j) => j.judge === name);
    if (JUDGE_WEIGHTS.version !== 'a964c03419f7') throw new Error('new weights: record the untouched figures anew');
    expect(by('learned')?.scores.macroF1).toBeCloseTo(0.203, 3);
    expect(by('learned')?.scores.supportedF1).toBeCloseTo(0.196, 3);
    expect(by('learned')?.ece).toBeCloseTo(0.32, 3);
    expect(by('learned')?.scores.confusion).toEqual([
      [73, 364, 212, 1],
      [6, 22, 31, 0],
      [15, 62, 78, 0],
      [0, 0, 0, 0],
    ]);
    expect(by('previous release')?.scores.macroF1).toBeCloseTo(0.158, 3);
    expect(by('majority class')?.scores.macroF1).toBeCloseTo(0.101, 3);
    expect(by("majority class of the set's own labels")?.scores.macroF1).toBeCloseTo(0.286, 3);
  });
});

describe('the kept features are what the code measures', () => {
  const dir = corporaDir(root);
  const present = REAL_SETS.filter((s) => available(dir, s));
  // Snapshots are fetched by the library's tool, so a clean machine may have none: then a set's rows cannot be
  // re-measured here, and a skipped test says so by name rather than passing silently.
  it.each(present.map((s) => [s.name, s] as const))('re-measures a fixed sample of %s from its snapshot', (_, set) => {
    const pairs = readRealSet(dir, set).filter((_, i) => i % 25 === 0);
    const kept = new Map(rows.filter((r) => r.set === set.name).map((r) => [r.id, r]));
    expect(pairs.length).toBeGreaterThan(0);
    for (const { pair, run } of runRealPairs(pairs, cfg)) {
      const b = run.bases[0];
      if (!b) throw new Error(pair.id);
      expect(rowOf(pair, b.score, b.basis), `${set.name} ${pair.id}`).toEqual(kept.get(pair.id));
    }
  });
  for (const set of REAL_SETS.filter((s) => !present.includes(s)))
    it.skip(`${set.name}: not re-measured, no snapshot of ${set.repo} here (AEQ_CORPORA_DIR or ../.mirror)`, () => {});
  it.runIf(present.some((s) => s.name === 'wice-dev'))(
    'eval:analysis measures a model endpoint on the same held-out pairs (the sandbox model here)',
    async () => {
      const sim = await startSimulator();
      try {
        const { stdout } = await execFileAsync(
          'npx',
          [
            'tsx',
            'bench/eval-analysis.ts',
            '--json',
            '--sets',
            'wice-dev',
            '--model-url',
            `${sim.url}/model/v1`,
            '--model',
            'aeq-sandbox-model',
            '--model-key',
            'sk-sandbox-analysis-model',
            '--model-limit',
            '30',
          ],
          { cwd: root, maxBuffer: 16 * 1024 * 1024 },
        );
        const out = JSON.parse(stdout) as {
          real: Array<{ set: string; pairs: number; judges: Array<{ judge: string }> }>;
        };
        const model = out.real.find((f) => f.judges.some((j) => j.judge.startsWith('model ')));
        expect(model).toMatchObject({ set: 'wice-dev', pairs: 30, judges: [{ judge: 'model aeq-sandbox-model' }] });
      } finally {
        await sim.close();
      }
    },
    120_000,
  );
});

describe('training', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'aeq-judge-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('is deterministic: two runs write the same file', () => {
    const train = (out: string) =>
      execFileSync('npx', ['tsx', 'bench/train-judge.ts', '--steps', '50', '--out', out], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    train(join(tmp, 'a.json'));
    train(join(tmp, 'b.json'));
    const a = readFileSync(join(tmp, 'a.json'), 'utf8');
    expect(a).toBe(readFileSync(join(tmp, 'b.json'), 'utf8'));
    expect(JSON.parse(a).version).toMatch(/^[0-9a-f]{12}$/);
  }, 120_000);

  // A full training takes a minute or more of CPU: run with AEQ_JUDGE_FULL_TRAINING=1 (and after every retraining).
  it.runIf(process.env.AEQ_JUDGE_FULL_TRAINING === '1')(
    'the shipped file is what the full training writes',
    () => {
      execFileSync('npx', ['tsx', 'bench/train-judge.ts', '--out', join(tmp, 'full.json')], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      expect(readFileSync(join(tmp, 'full.json'), 'utf8')).toBe(readFileSync(WEIGHTS_FILE, 'utf8'));
    },
    300_000,
  );

  it('its command and the evaluation command explain their options, and refuse a bad one in a line', () => {
    const run = (script: string, args: string[]) => {
      try {
        return { code: 0, out: execFileSync('npx', ['tsx', script, ...args], { cwd: root, encoding: 'utf8' }) };
      } catch (e) {
        const err = e as { status: number; stderr: string };
        return { code: err.status, out: err.stderr };
      }
    };
    expect(run('bench/train-judge.ts', ['--help'])).toEqual({ code: 0, out: expect.stringMatching(/--steps N/) });
    for (const [script, args, message] of [
      ['bench/train-judge.ts', ['--steps', 'many'], '--steps must be a positive integer'],
      ['bench/train-judge.ts', ['--step', '5'], "Unknown option '--step'"],
      ['bench/eval-analysis.ts', ['--split'], "Option '--split <value>' argument missing"],
      ['bench/eval-analysis.ts', ['heldout'], 'positional'],
    ] as const) {
      const r = run(script, [...args]);
      expect(r.code).toBe(2);
      expect(r.out).toContain(message);
      expect(r.out).toContain('npm run ');
      expect(r.out).not.toMatch(/\n\s+at /);
    }
  }, 120_000);

  it('refuses weights trained on other features', () => {
    expect(() => checkWeights({ ...JUDGE_WEIGHTS, features: FEATURE_NAMES.slice(1) })).toThrow(/train:judge/);
  });
});

async function analyze(answer: string, pages: string[]): Promise<any> {
  const citations = pages.map((_, i) => ({ url: `https://p${i + 1}.example/` }));
  const { result } = await analyzeSourceInfluence(
    { answer, prompt: null, citations, analysis: null },
    pages.map((t) => readPageRecord(t)),
    cfg,
  );
  return result;
}

describe('labels with their confidence in a result', () => {
  const EN = 'Trail models add a rock plate that protects the foot on rocky terrain.';
  const KO = '이 박물관은 1994년에 옛 항구에 문을 열었다.';
  const LONG_EN = `${'Runners discuss shoes, socks and the weather at length in this forum thread. '.repeat(60)}${EN}`;

  it.each([
    ['a short English passage', EN, EN],
    ['a long English page', EN, LONG_EN],
    ['a Korean sentence', KO, KO],
  ])('a claim the page states word for word is supported, with high confidence (%s)', async (_, claim, page) => {
    const r = await analyze(`${claim} [1]`, [page]);
    const s = r.claims[0].sources[0];
    expect(s).toMatchObject({ label: 'supported', judge: 'lexical' });
    expect(s.confidence).toBeGreaterThan(0.7);
    expect(r.summary.judgeWeights).toBe(JUDGE_WEIGHTS.version);
    // No real Korean set trained or measured the judge: a Korean result says so.
    expect(r.summary.judgeEvaluation).toMatchObject({ judge: 'lexical', measured: claim !== KO });
  });

  it.each([
    ['The museum opened in 1998 on the old harbour.', 'The museum opened in 1994 on the old harbour.'],
    ['The museum is not open to visitors every day.', 'The museum is open to visitors every day.'],
    ['이 박물관은 1998년에 옛 항구에 문을 열었다.', '이 박물관은 1994년에 옛 항구에 문을 열었다.'],
  ])('a contradiction the rule sees is never called supported: %s', async (claim, page) => {
    const r = await analyze(`${claim} [1]`, [page]);
    expect(r.claims[0].sources[0].label).not.toBe('supported');
  });

  it('a source weighs on a claim by its expected support, not by its label alone', async () => {
    const strong = 'Cushioned running shoes reduce impact forces on the knees during long runs.';
    const weak = 'Some running shoes have cushioning. Knees matter to runners. Long runs are popular.';
    const r = await analyze(`${strong} [1][2]`, [strong, weak]);
    const [a, b] = r.claims[0].sources;
    for (const s of [a, b]) {
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
      expect(s.support).toBeGreaterThanOrEqual(0);
      expect(s.support).toBeLessThanOrEqual(1);
    }
    expect(a.support).toBeGreaterThan(b.support);
    expect(a.weight).toBeGreaterThan(b.weight);
    // Both cited: weights are ε + expected support, normalised (metrics.ts attributionWeights).
    const eps = cfg.citedEpsilon;
    expect(a.weight / b.weight).toBeCloseTo((eps + a.support) / (eps + b.support), 2);
  });
});

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SI_CALIBRATION } from '../../src/analysis/config.js';
import { THRESHOLD_JUDGE } from './threshold-judge.js';
import { evaluate } from '../../src/analysis/eval/evaluate.js';
import { loadEvalSet, type EvalLanguage } from '../../src/analysis/eval/eval-set.js';
import { score } from '../../src/analysis/eval/scores.js';

/**
 * The held-out evaluation set's shape (test/fixtures/analysis/eval/README.md): at least 300 labelled pairs per
 * language on real pages, the split fixed by the id's hash when the item was written, contradictions that reuse the
 * page's words and paraphrases among the claims, and miscited claims to measure the flag on. The judge's figures
 * are printed by `npm run eval:analysis`, not asserted here: the held-out part is read once, at the end.
 */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'analysis', 'eval');

describe.each(['en', 'ko'] as EvalLanguage[])('the %s evaluation set', (lang) => {
  const set = loadEvalSet(DIR, lang);
  const pairs = set.items.flatMap((i) => i.sources);

  it('has at least 300 labelled pairs on real pages, every label in the rubric', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(300);
    expect(set.pages.size).toBeGreaterThanOrEqual(40);
    for (const p of set.pages.values()) expect(p.url).toMatch(/^https:\/\//);
  });

  it('keeps each item in the split its id hashes to (0-5 calibration, else held out)', () => {
    for (const item of set.items) {
      const digit = Number.parseInt(createHash('sha256').update(item.id).digest('hex')[0] ?? '0', 16);
      expect(item.split, item.id).toBe(digit <= 5 ? 'calibration' : 'heldout');
    }
    const heldout = set.items.filter((i) => i.split === 'heldout').flatMap((i) => i.sources);
    expect(heldout.length).toBeGreaterThanOrEqual(150);
  });

  it('includes contradictions that reuse the page, paraphrases, and miscited claims', () => {
    const kinds = new Map<string, number>();
    for (const i of set.items) kinds.set(i.kind, (kinds.get(i.kind) ?? 0) + 1);
    for (const k of ['paraphrase', 'negation', 'antonym', 'number', 'date', 'name', 'partial', 'topic'])
      expect(kinds.get(k) ?? 0, k).toBeGreaterThanOrEqual(10);
    expect(pairs.filter((p) => p.label === 'contradicted').length).toBeGreaterThanOrEqual(50);
    const miscited = set.items.filter(
      (i) =>
        i.cited.length > 0 &&
        i.sources.every((s) => !i.cited.includes(s.page) || s.label === 'unsupported' || s.label === 'contradicted') &&
        i.sources.some((s) => !i.cited.includes(s.page) && s.label === 'supported'),
    );
    expect(miscited.length).toBeGreaterThanOrEqual(20);
  });
});

describe('the calibration behind the defaults', () => {
  it('gives the recorded calibration-split macro-F1 with the recorded values (the held-out split is not read)', () => {
    const si = THRESHOLD_JUDGE;
    expect({
      wContain: si.lex.wContain,
      tauFull: si.tauFull,
      tauPartial: si.tauPartial,
      minContradictionOverlap: si.judge.minContradictionOverlap,
    }).toEqual(SI_CALIBRATION.chosen);
    for (const lang of ['en', 'ko'] as const) {
      const r = evaluate(loadEvalSet(DIR, lang), 'calibration', si);
      expect(r.scores.pairs).toBe(SI_CALIBRATION.pairs[lang]);
      expect(Math.round(r.scores.macroF1 * 1000) / 1000, lang).toBe(SI_CALIBRATION.macroF1[lang]);
    }
  }, 60_000);
});

describe('the evaluation figures', () => {
  it('macro-F1, supported F1, contradictions called supported, top-weighted support and mis-citation recall', () => {
    const s = score(
      [
        { gold: 'supported', predicted: 'supported' },
        { gold: 'supported', predicted: 'partial' },
        { gold: 'partial', predicted: 'partial' },
        { gold: 'unsupported', predicted: 'unsupported' },
        { gold: 'contradicted', predicted: 'supported' },
        { gold: 'contradicted', predicted: 'contradicted' },
      ],
      [
        { hasSupport: true, topWeightedGold: 'supported', goldMiscited: true, predictedMiscited: true },
        { hasSupport: true, topWeightedGold: 'unsupported', goldMiscited: true, predictedMiscited: false },
        { hasSupport: false, topWeightedGold: null, goldMiscited: false, predictedMiscited: true },
      ],
    );
    // supported: tp 1, fp 1, fn 1 → 0.5; partial: tp 1, fp 1 → 2/3; not supported: tp 2, fn 1 → 0.8
    expect(s.supportedF1).toBeCloseTo(0.5, 10);
    expect(s.macroF1).toBeCloseTo((0.5 + 2 / 3 + 0.8) / 3, 10);
    expect(s.contradictionsAsSupported).toBe(0.5);
    expect(s.topWeightedSupports).toBe(0.5);
    expect(s.miscitationRecall).toBe(0.5);
    expect(s.miscitationPrecision).toBe(0.5);
    expect(s.confusion[3]).toEqual([1, 0, 0, 1]);
  });
});

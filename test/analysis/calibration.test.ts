import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { THRESHOLD_JUDGE } from './threshold-judge.js';
import { influenceOrder, withDistractors, type OrderCase } from './influence-order.js';

/**
 * Influence ordering on the hand-written answers (a unit test: the thresholds are calibrated on the calibration
 * split of the real-page evaluation set, test/analysis/eval-set.test.ts): the most influential source of each answer
 * is found even when it is not the first citation, on short pages and inside long ones.
 */
const labelled = (
  JSON.parse(
    fs.readFileSync(new URL('../fixtures/analysis/calibration/source-influence.json', import.meta.url), 'utf8'),
  ) as { cases: OrderCase[] }
).cases;
const cases = [...labelled, ...withDistractors(labelled)];

describe('influence ordering of the hand-written answers', () => {
  it('has two English and two Korean answers with three pages each', () => {
    expect(labelled.map((c) => c.language).sort()).toEqual(['en', 'en', 'ko', 'ko']);
    for (const c of labelled) expect(c.sources).toHaveLength(3);
  });

  it('ranks the sources of each answer in the labelled order (English and Korean, short and long pages)', () => {
    for (const c of cases) expect(influenceOrder(c, THRESHOLD_JUDGE), c.id).toEqual(c.expectedOrder);
  });
});

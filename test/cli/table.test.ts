import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { table } from '../../src/cli/table.js';

/** `aeq research` and the other listings line up in a terminal whatever the script (Hangul takes two columns). */
describe('terminal tables', () => {
  it('align Korean, Latin and mixed cells by display width', () => {
    const out = table(
      ['question', 'tier', 'score'],
      [
        ['러닝화 추천 브랜드는 무엇인가요?', 'high', 12],
        ['best running shoes for flat feet?', 'medium', 3],
        ['나이키 vs 아디다스 러닝화', 'low', 100],
      ],
    );
    const lines = out.trimEnd().split('\n');
    // Every row's second column starts at the same terminal column, and numbers end at the same one.
    const tierStarts = lines.slice(1).map((l) => stringWidth(l.slice(0, l.search(/ (high|medium|low)\b/) + 1)));
    expect(new Set(tierStarts).size).toBe(1);
    expect(new Set(lines.slice(1).map((l) => stringWidth(l))).size).toBe(1);
  });

  it('cuts a wide cell at the column limit with an ellipsis, never inside a character', () => {
    const [, row] = table(['q'], [['가'.repeat(50)]], 21)
      .trimEnd()
      .split('\n');
    expect(row).toBe(`${'가'.repeat(10)}…`);
    expect(stringWidth(row ?? '')).toBeLessThanOrEqual(21);
  });
});

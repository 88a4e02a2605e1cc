import { describe, expect, it } from 'vitest';
import { TurnBatch } from '../../src/store/postgres/turn-batch.js';

describe('turn batch', () => {
  it('hands the calls of one turn to one flush, and the next turn to another', async () => {
    const flushed: number[][] = [];
    const batch = new TurnBatch<number, number>(
      async (xs) => {
        flushed.push(xs);
        return xs.map((x) => x * 10);
      },
      async (x) => -x,
    );
    expect(await Promise.all([1, 2, 3].map((x) => batch.add(x)))).toEqual([10, 20, 30]);
    expect(await batch.add(4)).toBe(-4);
    expect(flushed).toEqual([[1, 2, 3]]);
  });

  it('falls back to one call per item when the flush fails, so one bad item fails alone', async () => {
    const batch = new TurnBatch<number, number>(
      async () => {
        throw new Error('one statement for all failed');
      },
      async (x) => {
        if (x === 2) throw new Error('bad item');
        return x;
      },
    );
    const settled = await Promise.allSettled([1, 2, 3].map((x) => batch.add(x)));
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

import { describe, expect, it } from 'vitest';
import { newTaskId } from '../../src/domain/task-id.js';

describe('task ids', () => {
  it('are distinct within one millisecond and sort by their millisecond across them', () => {
    const ms = 1_800_000_000_000;
    const same = Array.from({ length: 10_000 }, () => newTaskId(ms));
    expect(new Set(same).size).toBe(same.length);
    const later = newTaskId(ms + 1);
    expect(same.every((id) => id < later)).toBe(true);
    expect(newTaskId(0).startsWith('00000000-0000-7')).toBe(true);
    expect(newTaskId(2 ** 48 - 1).startsWith('ffffffff-ffff-7')).toBe(true);
  });
});

import { expect, it } from 'vitest';
import { DAY_MS } from '../../../src/store/ports.js';
import { claimArgs, completed, forEachStore, T0, task } from './driver.js';

/** RuntimeState and Usage (src/store/ports.ts): shared operator changes and settings; usage kept past retention. */
forEachStore('runtime state and usage', (s) => {
  it('keeps the latest state per key, and a setting its first writer set', async () => {
    await s.store.runtime.putChange({ key: 'exit:a', state: '{"v":1}', now: T0 });
    await s.store.runtime.putChange({ key: 'engine:b', state: '{"paused":true}', now: T0 + 1 });
    await s.store.runtime.putChange({ key: 'exit:a', state: '{"v":2}', now: T0 + 2 });
    expect(await s.store.runtime.changes()).toEqual([
      { key: 'engine:b', state: '{"paused":true}', updatedAt: T0 + 1 },
      { key: 'exit:a', state: '{"v":2}', updatedAt: T0 + 2 },
    ]);
    expect(await s.store.runtime.getMeta('test-setting')).toBeUndefined();
    expect(await s.store.runtime.setMetaIfAbsent({ key: 'test-setting', value: 'first' })).toBe('first');
    expect(await s.store.runtime.setMetaIfAbsent({ key: 'test-setting', value: 'second' })).toBe('first');
    expect(await s.store.runtime.getMeta('test-setting')).toBe('first');
  });

  it("counts an account's finished tasks by day, retained or swept", async () => {
    const t = task({ createdAt: T0 });
    await s.store.tasks.insert({ tasks: [t] });
    const [c] = await s.store.tasks.claim(claimArgs());
    await s.store.tasks.finish({ id: t.id, leaseToken: c!.leaseToken, write: completed(), now: T0 + 2000 });
    const day = Math.floor((T0 + 2000) / DAY_MS);
    const expected = [{ day, taskType: 'ANSWER_ENGINE_A', tasks: 1, credits: 2 }];
    expect(await s.store.usage.byDay({ accountId: 'default', fromDay: day, toDay: day })).toEqual(expected);
    expect(await s.store.tasks.deleteExpired({ before: T0 + 1, limit: 10 })).toBe(1);
    expect(await s.store.usage.byDay({ accountId: 'default', fromDay: day, toDay: day })).toEqual(expected);
    expect(await s.store.usage.byDay({ accountId: 'other', fromDay: day, toDay: day })).toEqual([]);
  });
});

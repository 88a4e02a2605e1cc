import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { openTestStore } from '../helpers/stores.js';
import { task } from './ports/driver.js';

/** The embedded store's own forms: writes of one event-loop turn in one transaction, reads answered together. */
describe("the embedded store's group commit", () => {
  const s = { store: null as unknown as Store };
  let close: () => Promise<void>;
  beforeEach(async () => {
    ({ store: s.store, close } = await openTestStore('sqlite'));
  });
  afterEach(() => close());

  it('writes of one event-loop turn commit together, and one that fails rolls back alone', async () => {
    const first = task();
    await s.store.tasks.insert({ tasks: [first] });
    const ok = task();
    const partner = task();
    const results = await Promise.allSettled([
      s.store.tasks.insert({ tasks: [ok] }),
      // Same primary key as `first`: the insert throws, and `partner` (same call) must not stay.
      s.store.tasks.insert({ tasks: [partner, { ...task(), id: first.id }] }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await s.store.tasks.get({ id: ok.id, notBefore: 0 })).toBeDefined();
    expect(await s.store.tasks.get({ id: partner.id, notBefore: 0 })).toBeUndefined();
    expect((await s.store.figures.stats({ notBefore: 0 })).tasks.QUEUED).toBe(2);
  });

  it('reads of one turn are answered together once it ends, each with its own outcome', async () => {
    const a = task();
    await s.store.tasks.insert({ tasks: [a] });
    const answered: string[] = [];
    const polls = [a.id, randomUUID(), a.id].map((id, i) =>
      s.store.tasks.poll({ id, notBefore: 0 }).then((t) => answered.push(`${i}:${t?.status ?? 'none'}`)),
    );
    answered.push('turn goes on');
    await Promise.resolve();
    expect(answered).toEqual(['turn goes on']);
    await Promise.all(polls);
    expect(answered).toEqual(['turn goes on', '0:QUEUED', '1:none', '2:QUEUED']);
  });
});

import { expect, it } from 'vitest';
import type { StoredArtifact } from '../../../src/domain/artifact.js';
import { claimArgs, completed, forEachStore, T0, task } from './driver.js';

const raw: StoredArtifact = {
  name: 'raw.json',
  kind: 'raw',
  contentType: 'application/json; charset=utf-8',
  bytes: 12,
  sha256: 'a'.repeat(64),
  createdAt: T0 + 5,
  attempt: 1,
};

/**
 * TaskQueue.artifacts and the finish that records them (src/store/tasks/finish.ts, read.ts): the list is written by
 * the terminal write under the lease fence, read only for the task's own account within retention, and goes with the
 * task's row.
 */
forEachStore('task artefacts', (s) => {
  it('the finish records the list; the owner reads it, another account and an expired read do not', async () => {
    const t = task({ createdAt: T0 });
    await s.store.tasks.insert({ tasks: [t] });
    expect(await s.store.tasks.artifacts({ id: t.id, accountId: 'default', notBefore: 0 })).toEqual([]);
    const [held] = await s.store.tasks.claim(claimArgs({ now: T0 }));
    if (!held) throw new Error('not claimed');
    const html: StoredArtifact = { ...raw, name: 'page.html', kind: 'html', contentType: 'text/html; charset=utf-8' };
    const write = { ...completed(), artifacts: [raw, html] };
    expect(await s.store.tasks.finish({ id: t.id, leaseToken: held.leaseToken, write, now: T0 + 10 })).toBe(true);
    expect(await s.store.tasks.artifacts({ id: t.id, accountId: 'default', notBefore: 0 })).toEqual([raw, html]);
    expect(await s.store.tasks.artifacts({ id: t.id, accountId: 'other', notBefore: 0 })).toBeUndefined();
    expect(await s.store.tasks.artifacts({ id: t.id, accountId: 'default', notBefore: T0 + 1 })).toBeUndefined();
  });

  it('a finish that lost its lease records nothing; a finish without artefacts records none', async () => {
    const [a, b] = [task({ createdAt: T0 }), task({ createdAt: T0 + 1 })];
    await s.store.tasks.insert({ tasks: [a, b] });
    const held = await s.store.tasks.claim(claimArgs({ now: T0 + 2 }));
    expect(held).toHaveLength(2);
    const write = { ...completed(), artifacts: [raw] };
    expect(await s.store.tasks.finish({ id: a.id, leaseToken: 'stale', write, now: T0 + 3 })).toBe(false);
    expect(await s.store.tasks.artifacts({ id: a.id, accountId: 'default', notBefore: 0 })).toEqual([]);
    const token = held.find((h) => h.id === b.id)?.leaseToken ?? '';
    expect(await s.store.tasks.finish({ id: b.id, leaseToken: token, write: completed(), now: T0 + 3 })).toBe(true);
    expect(await s.store.tasks.artifacts({ id: b.id, accountId: 'default', notBefore: 0 })).toEqual([]);
  });

  it('goes with its task at the retention sweep', async () => {
    const t = task({ createdAt: T0 });
    await s.store.tasks.insert({ tasks: [t] });
    const [held] = await s.store.tasks.claim(claimArgs({ now: T0 }));
    const write = { ...completed(), artifacts: [raw] };
    await s.store.tasks.finish({ id: t.id, leaseToken: held?.leaseToken ?? '', write, now: T0 + 1 });
    expect(await s.store.tasks.deleteExpired({ before: T0 + 1, limit: 10 })).toBe(1);
    expect(await s.store.tasks.artifacts({ id: t.id, accountId: 'default', notBefore: 0 })).toBeUndefined();
  });
});

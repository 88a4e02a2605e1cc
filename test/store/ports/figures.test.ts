import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { claimArgs, completed, forEachStore, T0, task } from './driver.js';

/** Figures (src/store/ports.ts): /stats and the queue depths follow every transition. */
forEachStore('the figures', (s) => {
  it('counts by status and engine follow every transition, leaving out expired tasks not swept yet', async () => {
    const a = task({ webhookUrl: 'https://example.com/h' });
    const b = task();
    const c = task({ taskType: 'FORUM' });
    const expired = task({ createdAt: T0 - 100_000 });
    await s.store.tasks.insert({ tasks: [a, b, c] });
    const claimed = await s.store.tasks.claim(claimArgs({ limit: 2 }));
    expect(claimed).toHaveLength(2);
    await s.store.tasks.insert({ tasks: [expired] });
    await s.store.tasks.finish({
      id: claimed[0]!.id,
      leaseToken: claimed[0]!.leaseToken,
      write: completed({ url: 'https://example.com/h', payload: {}, accountId: 'default' }),
      now: T0 + 2000,
    });
    await s.store.tasks.retry({
      id: claimed[1]!.id,
      leaseToken: claimed[1]!.leaseToken,
      error: 'x',
      availableAt: T0 + 5000,
      now: T0 + 2000,
    });
    const st = await s.store.figures.stats({ notBefore: T0 - 50_000 });
    expect(st.tasks).toEqual({ QUEUED: 2, PROCESSING: 0, COMPLETED: 1, FAILED: 0 });
    expect(st.byEngine).toEqual({
      ANSWER_ENGINE_A: { QUEUED: 1, PROCESSING: 0, COMPLETED: 1, FAILED: 0 },
      FORUM: { QUEUED: 1, PROCESSING: 0, COMPLETED: 0, FAILED: 0 },
    });
    expect(st.webhooks).toEqual({ pending: 1, delivered: 0, abandoned: 0 });
    expect((await s.store.figures.stats({ notBefore: 0 })).tasks.QUEUED).toBe(3);
    expect(await s.store.figures.queuedAndRunning({ notBefore: T0 - 50_000 })).toEqual({
      ANSWER_ENGINE_A: { queued: 1, processing: 0 },
      FORUM: { queued: 1, processing: 0 },
    });
    // The same figures as an aggregate over the rows themselves.
    const rows = await s.store.db
      .selectFrom('tasks')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', T0 - 50_000)
      .groupBy('status')
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))).toEqual({ QUEUED: 2, COMPLETED: 1 });
    await s.store.tasks.deleteExpired({ before: T0 - 50_000, limit: 100 });
    expect((await s.store.figures.stats({ notBefore: 0 })).tasks.QUEUED).toBe(2);
  });
});

forEachStore('the figures per account', (s, kind) => {
  it("count each account's own tasks and deliveries, the same before and after the counts are folded", async () => {
    const mine = [task({ accountId: 'acct-a', webhookUrl: 'https://example.com/h' }), task({ accountId: 'acct-a' })];
    const theirs = [task({ accountId: 'acct-b', taskType: 'FORUM' })];
    await s.store.tasks.insert({ tasks: [...mine, ...theirs] });
    const claimed = await s.store.tasks.claim(claimArgs({ limit: 3 }));
    const first = claimed.find((t) => t.id === mine[0]!.id)!;
    await s.store.tasks.finish({
      id: first.id,
      leaseToken: first.leaseToken,
      write: completed({ url: 'https://example.com/h', payload: {}, accountId: 'acct-a' }),
      now: T0 + 2000,
    });
    const read = async () => ({
      a: await s.store.figures.stats({ notBefore: T0 - 50_000, accountId: 'acct-a' }),
      b: await s.store.figures.stats({ notBefore: T0 - 50_000, accountId: 'acct-b' }),
      all: await s.store.figures.stats({ notBefore: T0 - 50_000 }),
    });
    const before = await read();
    expect(before.a.tasks).toEqual({ QUEUED: 0, PROCESSING: 1, COMPLETED: 1, FAILED: 0 });
    expect(before.a.webhooks).toEqual({ pending: 1, delivered: 0, abandoned: 0 });
    expect(before.b.tasks).toEqual({ QUEUED: 1, PROCESSING: 0, COMPLETED: 0, FAILED: 0 });
    expect(before.b.byEngine).toEqual({ FORUM: { QUEUED: 1, PROCESSING: 0, COMPLETED: 0, FAILED: 0 } });
    expect(before.b.webhooks).toEqual({ pending: 0, delivered: 0, abandoned: 0 });
    expect(before.all.tasks).toEqual({ QUEUED: 1, PROCESSING: 1, COMPLETED: 1, FAILED: 0 });
    // Folded, twice at once: one row per count where the store keeps rows of changes, and the same figures.
    const written = await Promise.all([s.store.figures.foldCounts(), s.store.figures.foldCounts()]);
    if (kind === 'sqlite') expect(written).toEqual([0, 0]);
    else {
      const rows = await sql<{ scope: string; status: string; n: string }>`select scope, status, sum(n) as n,
        count(*) as rows from status_count_deltas group by scope, task_type, status order by 1, 2`.execute(s.store.db);
      // acct-a's QUEUED came to 0: its rows are gone.
      expect(rows.rows.map((r) => ({ ...r }))).toEqual([
        { scope: 'delivery:acct-a', status: 'PENDING', n: '1', rows: '1' },
        { scope: 'task:acct-a', status: 'COMPLETED', n: '1', rows: '1' },
        { scope: 'task:acct-a', status: 'PROCESSING', n: '1', rows: '1' },
        { scope: 'task:acct-b', status: 'QUEUED', n: '1', rows: '1' },
      ]);
    }
    expect(await read()).toEqual(before);
    // A fold with nothing new changes nothing; the counts go on from the folded rows.
    await s.store.figures.foldCounts();
    await s.store.tasks.insert({ tasks: [task({ accountId: 'acct-b' })] });
    expect((await s.store.figures.stats({ notBefore: 0, accountId: 'acct-b' })).tasks.QUEUED).toBe(2);
  });
});

forEachStore('the figures and transactions', (s) => {
  it('count no write that was rolled back', async () => {
    await s.store.tasks.insert({ tasks: [task({ accountId: 'acct-r' })] });
    await s.store.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('tasks').set({ status: 'FAILED' }).where('account_id', '=', 'acct-r').execute();
        await trx.deleteFrom('tasks').where('account_id', '=', 'acct-r').execute();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const st = await s.store.figures.stats({ notBefore: 0, accountId: 'acct-r' });
    expect(st.tasks).toEqual({ QUEUED: 1, PROCESSING: 0, COMPLETED: 0, FAILED: 0 });
  });
});

import { CompiledQuery, sql } from 'kysely';
import { expect, it } from 'vitest';
import { newTaskId } from '../../../src/domain/task-id.js';
import { orderedScans, readyBatchesQuery } from '../../../src/store/batches.js';
import { claimArgs, completed, forEachStore, T0, task } from './driver.js';

/** Batches (src/store/ports.ts): a batch's row with its tasks, its counts, its items and its completion. */
forEachStore('batches', (s, kind) => {
  const ofBatch = async (n: number, webhookUrl: string | null = null) => {
    const batch = { id: newTaskId(T0), size: n, webhookUrl, createdAt: T0, accountId: 'default' };
    const tasks = Array.from({ length: n }, (_, index) =>
      task({ id: newTaskId(T0), batch: { id: batch.id, index }, createdAt: T0 }),
    );
    await s.store.tasks.insert({ tasks, batch });
    return { batch, tasks };
  };

  it('counts a batch by status and lists its items in order, with what each asked when wanted', async () => {
    const { batch, tasks } = await ofBatch(3);
    const got = await s.store.batches.get({ id: batch.id, accountId: 'default', notBefore: 0 });
    expect(got).toMatchObject({ id: batch.id, total: 3, completedAt: null });
    expect(got?.counts).toMatchObject({ QUEUED: 3, PROCESSING: 0, COMPLETED: 0, FAILED: 0 });
    expect(await s.store.batches.get({ id: batch.id, accountId: 'other', notBefore: 0 })).toBeUndefined();
    const items = await s.store.batches.items({ batch: got!, after: -1, limit: 10 });
    expect(items.map((i) => [i.index, i.taskId])).toEqual(tasks.map((t, i) => [i, t.id]));
    const [second] = await s.store.batches.items({ batch: got!, after: 0, limit: 1, withPayload: true });
    expect(second).toMatchObject({ index: 1, request: { payload: { prompt: 'p' } } });
  });

  it('completes a batch once, when its last task is terminal, and queues its webhook', async () => {
    const { batch, tasks } = await ofBatch(2, 'https://example.com/batch');
    const complete = () =>
      s.store.batches.complete({
        now: T0 + 3000,
        notBefore: 0,
        limit: 10,
        webhookOf: (b) => ({ url: b.webhookUrl ?? '', payload: { batch: b.id }, accountId: b.accountId }),
      });
    const claimed = await s.store.tasks.claim(claimArgs());
    expect(claimed).toHaveLength(2);
    const [first, last] = claimed;
    await s.store.tasks.finish({ id: first!.id, leaseToken: first!.leaseToken, write: completed(), now: T0 + 2000 });
    expect(await complete()).toEqual([]);
    await s.store.tasks.finish({ id: last!.id, leaseToken: last!.leaseToken, write: completed(), now: T0 + 2000 });
    const done = await complete();
    expect(done.map((b) => b.id)).toEqual([batch.id]);
    expect(done[0]?.counts.COMPLETED).toBe(tasks.length);
    expect(await complete()).toEqual([]);
    expect(await s.store.outbox.log(batch.id)).toMatchObject({ url: 'https://example.com/batch', status: 'PENDING' });
  });

  it("lists an account's batches newest first by cursor, and deletes expired ones", async () => {
    const a = await ofBatch(1);
    const b = await ofBatch(1);
    const page = await s.store.batches.list({ accountId: 'default', notBefore: 0, beforeId: null, limit: 1 });
    expect(page.batches.map((x) => x.id)).toEqual([b.batch.id]);
    expect(page.more).toBe(true);
    const next = await s.store.batches.list({ accountId: 'default', notBefore: 0, beforeId: b.batch.id, limit: 1 });
    expect(next).toMatchObject({ batches: [{ id: a.batch.id }], more: false });
    expect(await s.store.batches.deleteExpired({ before: T0 + 1, limit: 10 })).toBe(2);
    expect(await s.store.batches.get({ id: a.batch.id, accountId: 'default', notBefore: 0 })).toBeUndefined();
  });

  it.skipIf(kind !== 'postgres')(
    "finds complete batches through the tasks' key from each range's end, with statistics or without",
    async () => {
      // A day's retained tasks in part: 60 batches of 500, the first 40 complete and marked, then 5 complete and not
      // yet marked, then 15 with queued tasks. Written in SQL: the plan, not the submit path, is under test.
      const db = s.store.db;
      await sql`insert into batches (id, size, total, first_task_id, last_task_id, created_at, completed_at)
        select 'b' || lpad(b::text, 6, '0'), 500, 500, 't' || lpad((b * 500)::text, 9, '0'),
          't' || lpad((b * 500 + 499)::text, 9, '0'), ${T0}::bigint + b, case when b < 40 then ${T0 + 100}::bigint end
        from generate_series(0, 59) b`.execute(db);
      await sql`insert into tasks (id, task_type, status, priority, sort_key, payload, created_at, updated_at,
          available_at, max_attempts, credits_to_charge, batch_id, batch_index)
        select 't' || lpad(i::text, 9, '0'), 'CHATBOT_A', case when i / 500 < 45 then 'COMPLETED' else 'QUEUED' end,
          0, i, '{}', ${T0}::bigint, ${T0}::bigint, ${T0}::bigint, 3, 1, 'b' || lpad((i / 500)::text, 6, '0'), i % 500
        from generate_series(0, 29999) i`.execute(db);
      const query = readyBatchesQuery(db, { notBefore: 0, limit: 100 });
      // Planned as the completer plans it: in its transaction, with its planner settings.
      const plan = () =>
        db.transaction().execute(async (trx) => {
          await orderedScans(trx);
          const q = query.compile();
          const r = await trx.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]),
          );
          return r.rows.map((row) => row['QUERY PLAN']).join('\n');
        });
      for (const stage of ['without statistics', 'analyzed']) {
        if (stage === 'analyzed') await sql`analyze tasks; analyze batches`.execute(db);
        const text = await plan();
        // Each open batch looked up on its own (a subplan), never the table read whole nor joined against.
        expect(text, stage).toMatch(/SubPlan/);
        expect(text, stage).not.toMatch(/Seq Scan on tasks|Anti Join/);
        // Each batch's range read from its end in key order, stopping at its last unfinished task; a bitmap scan read
        // every task of every open batch on every pass.
        expect(text, stage).toMatch(/Index Scan Backward using tasks_pkey on tasks/);
        expect(text, stage).not.toMatch(/Bitmap Heap Scan on tasks/);
        expect((await query.execute()).map((b) => b.id)).toEqual([40, 41, 42, 43, 44].map((b) => `b0000${b}`));
      }
    },
  );
});

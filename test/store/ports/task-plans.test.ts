import { CompiledQuery, type Compilable, type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Database } from '../../../src/store/schema.js';
import { expiredTaskIdsQuery, expiredUnorderedTaskIdsQuery, keyOrderScans } from '../../../src/store/tasks/delete.js';
import { expiredLeasesQuery } from '../../../src/store/tasks/reap.js';
import { expiredCountsQuery, queueDepthQuery } from '../../../src/store/stats.js';
import { forEachStore, T0 } from './driver.js';

/**
 * PostgreSQL keeps no index on a task's creation time or lease expiry (postgres/migrations/031-lean-task-indexes.ts):
 * the retention sweep, the lease reaper, the queue depths of `/capacity` and the expired tasks /stats leaves out must
 * still read an index, never the whole table, on a new database (no statistics: this machine's cluster runs without
 * autovacuum) and on an analyzed one.
 */
forEachStore('task reads without their own index', (s, kind) => {
  it.skipIf(kind !== 'postgres')(
    'the sweep reads the start of the key, the reaper and the depths the partial indexes, with statistics or without',
    async () => {
      // 30,000 retained tasks, one a millisecond, ids as newTaskId makes them (time, then a counter): 29,000
      // finished, 900 queued, 100 held, half of them with an expired lease.
      const db = s.store.db;
      await sql`insert into tasks (id, task_type, status, priority, sort_key, payload, created_at, updated_at,
          available_at, max_attempts, credits_to_charge, lease_token, lease_expires_at)
        select substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7000-8000-' || lpad(i::text, 12, '0'), 'CHATBOT_A',
          case when i < 29000 then 'COMPLETED' when i < 29900 then 'QUEUED' else 'PROCESSING' end,
          0, i, '{}', ms, ms, ms, 3, 1, case when i >= 29900 then 'token' end,
          case when i >= 29900 then ${T0}::bigint + case when i % 2 = 0 then -1 else 1000 end end
        from generate_series(0, 29999) i,
          lateral (select ${T0 - 30_000}::bigint + i as ms) as t,
          lateral (select lpad(to_hex(ms), 12, '0') as h) as x`.execute(db);
      // And 20 finished tasks of an older release, with random (version 4) ids, expired.
      await sql`insert into tasks (id, task_type, status, priority, sort_key, payload, created_at, updated_at,
          available_at, max_attempts, credits_to_charge)
        select gen_random_uuid()::text, 'CHATBOT_A', 'COMPLETED', 0, 0, '{}', ms, ms, ms, 3, 1
        from generate_series(0, 19) i, lateral (select ${T0 - 100_000}::bigint + i as ms) as t`.execute(db);
      // Planned as each runs: the sweep in its transaction, with its planner settings.
      const plan = (q: Compilable, settings?: (trx: Kysely<Database>) => Promise<void>) =>
        db.transaction().execute(async (trx) => {
          await settings?.(trx);
          const c = q.compile();
          const r = await trx.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain ${c.sql}`, [...c.parameters]),
          );
          return r.rows.map((row) => row['QUERY PLAN']).join('\n');
        });
      const sweep = expiredTaskIdsQuery(db, { before: T0 - 20_000, limit: 500 });
      const sweepUnordered = expiredUnorderedTaskIdsQuery(db, { before: T0 - 20_000, limit: 500 });
      const reap = expiredLeasesQuery(db, T0);
      const depth = queueDepthQuery(db, T0 - 86_400_000);
      const expiredCounts = { compile: () => expiredCountsQuery(T0 - 20_000, 'default').compile(db) };
      for (const stage of ['without statistics', 'analyzed']) {
        if (stage === 'analyzed') await sql`analyze tasks`.execute(db);
        const sweepPlan = await plan(sweep, keyOrderScans);
        expect(sweepPlan, stage).toMatch(/Index Scan using tasks_pkey on tasks/);
        expect(sweepPlan, stage).not.toMatch(/Seq Scan on tasks|Sort/);
        const unorderedPlan = await plan(sweepUnordered, keyOrderScans);
        expect(unorderedPlan, stage).toMatch(/Index Scan using tasks_unordered_created on tasks/);
        expect(unorderedPlan, stage).not.toMatch(/Seq Scan on tasks|Sort/);
        expect(await sweepUnordered.execute()).toHaveLength(20);
        const depthPlan = await plan(depth);
        expect(depthPlan, stage).toMatch(/tasks_claim/);
        expect(depthPlan, stage).toMatch(/tasks_running/);
        expect(depthPlan, stage).not.toMatch(/Seq Scan on tasks/);
        // /stats: the counts the triggers keep, less the expired tasks still there, read from the start of the key.
        const countsPlan = await plan(expiredCounts, keyOrderScans);
        expect(countsPlan, stage).toMatch(/Index Scan using tasks_pkey on tasks/);
        expect(countsPlan, stage).toMatch(/tasks_unordered_created/);
        expect(countsPlan, stage).not.toMatch(/Seq Scan on tasks/);
        const st = await s.store.figures.stats({ notBefore: T0 - 20_000 });
        expect(st.tasks, stage).toEqual({ QUEUED: 900, PROCESSING: 100, COMPLETED: 19_000, FAILED: 0 });
        expect((await s.store.figures.stats({ notBefore: 0 })).tasks.COMPLETED, stage).toBe(29_020);
        const reapPlan = await plan(reap);
        expect(reapPlan, stage).toMatch(/Index Scan on tasks_running|Index Scan using tasks_running on tasks/);
        expect(reapPlan, stage).not.toMatch(/Seq Scan on tasks/);
        // The answers, too: the oldest 500 tasks, and the 50 held tasks whose lease ran out.
        const swept = (await sweep.execute()).map((r) => r.id);
        expect(swept).toHaveLength(500);
        expect(swept).toEqual([...swept].sort());
        // The first time-ordered id is the oldest task's; a random id of the older release may sort before it.
        expect(swept.find((id) => id[14] === '7')).toMatch(/-000000000000$/);
        expect(await s.store.figures.queuedAndRunning({ notBefore: T0 - 86_400_000 })).toEqual({
          CHATBOT_A: { queued: 900, processing: 100 },
        });
        expect((await reap.execute()).map((r) => Number(r.sort_key) % 2)).toEqual(Array(50).fill(0));
      }
    },
  );
});

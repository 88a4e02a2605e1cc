/**
 * `npx tsx bench/investigations/pg-stats.ts [--tasks=1000000] [--accounts=50] [--reads=50]`
 *
 * The figures of GET /stats on the PostgreSQL store with many retained tasks: the store's read (running counts,
 * postgres/migrations/032-status-count-deltas.ts) against the aggregate over the task table it replaced, in the same
 * run on the same database. A throwaway database is migrated, filled by one `insert … select` (ids as newTaskId makes
 * them, one task a millisecond over the retention window, 7 engines, `--accounts` accounts, 70% COMPLETED with a
 * 1.5 KB result, 5% FAILED, the rest QUEUED; the statement triggers count them), analyzed, and each read runs
 * `--reads` times one after another after 3 warm-ups, one account's figures (p50, p99, ms). Both reads' answers must
 * agree. Then the same while the counts hold unfolded rows (--pending rows of changes, as a busy store adds between
 * two folds), and with --expired tasks created just before the window that the sweep has not deleted yet (which a
 * read subtracts, reading them for every account: on PostgreSQL the sweep runs every 2 s, so about 3 s of intake).
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createThrowawayDatabase } from '../compare/throwaway-db.js';
import { scriptArgs } from '../cli-args.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Stats } from '../../src/store/ports.js';

const values = scriptArgs('npx tsx bench/investigations/pg-stats.ts [--tasks=N] [--accounts=N] [--reads=N]', {
  tasks: { type: 'string', default: '1000000' },
  accounts: { type: 'string', default: '50' },
  reads: { type: 'string', default: '50' },
  pending: { type: 'string', default: '20000' },
  expired: { type: 'string', default: '21000' },
});
const TASKS = Number(values.tasks);
const ACCOUNTS = Number(values.accounts);
const READS = Number(values.reads);
const PENDING = Number(values.pending);
const EXPIRED = Number(values.expired);
const RETENTION_MS = 86_400_000;

const db = await createThrowawayDatabase('aeq_stats');
const store = openPostgresStore(db.url, 60_000, 4);
try {
  await store.migrate();
  const now = Date.now();
  const t0 = performance.now();
  // A task a millisecond, the newest now; ids: 12 hex digits of the time, then version 7 and a counter.
  await sql`insert into tasks (id, task_type, status, priority, sort_key, payload, created_at, updated_at,
      available_at, max_attempts, credits_to_charge, account_id, result)
    select substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7000-8000-' || lpad(i::text, 12, '0'),
      (array['ANSWER_ENGINE_A','CHATBOT_A','SEARCH_A','WEB_SCRAPE','FORUM','AIMODE','ASSISTANT_A'])[1 + i % 7],
      case when i % 20 < 14 then 'COMPLETED' when i % 20 = 14 then 'FAILED' else 'QUEUED' end,
      0, i, '{"prompt":"what is the best crm for a small team"}', ms, ms, ms, 3, 1, 'acct' || (i % ${ACCOUNTS}),
      case when i % 20 < 14 then repeat('x', 1500) end
    from generate_series(0, ${TASKS - 1}) i,
      lateral (select ${now - TASKS}::bigint + i as ms) as t,
      lateral (select lpad(to_hex(ms), 12, '0') as h) as x`.execute(store.db);
  await sql`analyze tasks`.execute(store.db);
  console.log(`${TASKS} tasks inserted and analyzed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const notBefore = now - RETENTION_MS;
  const accountId = 'acct7';
  // The read before the counts: one aggregate over the account's retained tasks, as src/store/stats.ts had it.
  const aggregate = async (): Promise<Record<string, number>> => {
    const rows = await store.db
      .selectFrom('tasks')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', notBefore)
      .where('account_id', '=', accountId)
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  };
  const counts = (): Promise<Stats> => store.figures.stats({ notBefore, accountId });
  const time = async (read: () => Promise<unknown>) => {
    for (let i = 0; i < 3; i++) await read();
    const ms: number[] = [];
    for (let i = 0; i < READS; i++) {
      const s = performance.now();
      await read();
      ms.push(performance.now() - s);
    }
    ms.sort((a, b) => a - b);
    const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!.toFixed(2);
    return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
  };
  const expected = await aggregate();
  const got = (await counts()).tasks;
  const agree = Object.entries(got).every(([k, v]) => (expected[k] ?? 0) === v);
  console.log(`answers agree: ${agree} (${JSON.stringify(got)})`);
  if (!agree) process.exitCode = 1;
  console.log(`| read | ${TASKS.toLocaleString('en-US')} tasks, ${ACCOUNTS} accounts, one account's figures |`);
  console.log('|---|---|');
  console.log(`| aggregate over the tasks (before) | ${await time(aggregate)} |`);
  console.log(`| running counts, folded (after) | ${await time(counts)} |`);
  // Rows of changes a busy store adds between two folds, for this account and the others.
  await sql`insert into status_count_deltas (scope, task_type, status, n)
    select 'task:acct' || (i % ${ACCOUNTS}), 'ANSWER_ENGINE_A', case when i % 2 = 0 then 'QUEUED' else 'PROCESSING' end,
      case when i % 2 = 0 then -1 else 1 end
    from generate_series(0, ${PENDING - 1}) i`.execute(store.db);
  console.log(`| running counts, ${PENDING.toLocaleString('en-US')} rows not folded yet | ${await time(counts)} |`);
  // Tasks created in the last milliseconds before the window, one a millisecond, not swept yet.
  await sql`insert into tasks (id, task_type, status, priority, sort_key, payload, created_at, updated_at,
      available_at, max_attempts, credits_to_charge, account_id)
    select substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7000-9000-' || lpad(i::text, 12, '0'), 'FORUM', 'COMPLETED',
      0, i, '{}', ms, ms, ms, 3, 1, 'acct' || (i % ${ACCOUNTS})
    from generate_series(1, ${EXPIRED}) i,
      lateral (select ${notBefore}::bigint - i as ms) as t,
      lateral (select lpad(to_hex(ms), 12, '0') as h) as x`.execute(store.db);
  const f = performance.now();
  const fold = await store.figures.foldCounts();
  const foldMs = performance.now() - f;
  console.log(
    `| running counts, ${EXPIRED.toLocaleString('en-US')} expired tasks not swept yet | ${await time(counts)} |`,
  );
  console.log(
    `fold: ${PENDING.toLocaleString('en-US')} rows of changes and more into ${fold}, ${foldMs.toFixed(1)} ms`,
  );
} finally {
  await store.close();
  await db.drop();
}

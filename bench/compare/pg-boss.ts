import PgBoss from 'pg-boss';
import pg from 'pg';
import { createThrowawayDatabase } from './throwaway-db.js';
import { HandledJobs, chunks, inTwoLanes, waitUntil, type LibraryRun, type Pattern } from './workload.js';
import { startCpuMeter, type CpuUse } from './cpu-meter.js';

const QUEUE = 'noop';
/** pg-boss 10 refuses a polling interval below 0.5 s; its default is 2 s. */
const POLLING_INTERVAL_S = 0.5;

/**
 * The no-op workload in pg-boss 10's idiomatic form, in its own throwaway database on the same
 * PostgreSQL (default options but the pool: schema `pgboss`, `max` = `poolSize`, aeq's PostgreSQL
 * pool; pg-boss's default is 10 too): `createQueue`, `insert` (its bulk API: one statement per chunk
 * of 500, two in flight), and one `work()`.
 *
 * Concurrency: pg-boss 10 has no teamSize/teamConcurrency (removed in 10) nor localConcurrency
 * (added in 12, which needs Node 22). A worker fetches up to `batchSize` jobs per poll, hands them to
 * the handler as one array and completes them together; so one worker with batchSize =
 * `concurrency` holds at most `concurrency` jobs in flight, as aeq's engine concurrency does. (The
 * other v10 idiom, `concurrency` workers of batchSize 1, has the same bound but issues one fetch
 * query per worker per poll.) After each fetch the worker waits out the rest of the polling
 * interval, set here to the 0.5 s minimum.
 *
 * Timed to the moment the database shows all n jobs completed: pg-boss completes a batch without
 * awaiting it and emits no completion event, so once the handler has seen every job the job table is
 * polled (every 5 ms) for `state = 'completed'`. `while-running`: `work()` is called before the first
 * insert, timed from the first insert. `queued-first`: every job is inserted (pg-boss started and its
 * schema made), then timed from the call to `work()`.
 */
export async function runPgBossOnce(
  n: number,
  concurrency: number,
  poolSize: number,
  pattern: Pattern,
): Promise<LibraryRun> {
  const db = await createThrowawayDatabase('aeq_bench_pgboss');
  const boss = new PgBoss({ connectionString: db.url, max: poolSize });
  const counter = new pg.Client({ connectionString: db.url });
  let failures = 0;
  boss.on('error', () => void failures++);
  const handled = new HandledJobs();
  try {
    await boss.start();
    await counter.connect();
    await boss.createQueue(QUEUE);
    const work = () =>
      boss.work(QUEUE, { batchSize: concurrency, pollingIntervalSeconds: POLLING_INTERVAL_S }, async (jobs) => {
        for (const job of jobs) handled.record(job.id);
      });
    const completedInDb = async () =>
      (
        await counter.query<{ n: number }>(
          `select count(*)::int as n from pgboss.job where name = $1 and state = 'completed'`,
          [QUEUE],
        )
      ).rows[0]?.n ?? 0;
    const inserts = chunks(n, (i) => ({ name: QUEUE, data: { prompt: `dispatch ${i}` } }));
    let t0: number;
    let cpuSince: () => CpuUse;
    if (pattern === 'while-running') {
      await work();
      t0 = performance.now();
      cpuSince = startCpuMeter();
      await inTwoLanes(inserts, (c) => boss.insert(c));
    } else {
      await inTwoLanes(inserts, (c) => boss.insert(c));
      t0 = performance.now();
      cpuSince = startCpuMeter();
      await work();
    }
    const timeoutMs = 60_000 + n * 10;
    await waitUntil(
      () => handled.ids.size >= n,
      timeoutMs,
      () => `pg-boss: handler saw ${handled.ids.size} of ${n} jobs`,
    );
    let completed = 0;
    await waitUntil(
      async () => {
        completed = await completedInDb();
        return completed >= n;
      },
      timeoutMs,
      () => `pg-boss: ${completed} of ${n} jobs completed`,
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSince();
    return { seconds, cpu, completed, duplicates: handled.duplicates, failures };
  } finally {
    await counter.end().catch(() => undefined);
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    await db.drop();
  }
}

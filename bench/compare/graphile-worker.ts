import { EventEmitter } from 'node:events';
import { Logger, makeWorkerUtils, run, type Runner, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { createThrowawayDatabase } from './throwaway-db.js';
import { HandledJobs, chunks, inTwoLanes, waitUntil, type LibraryRun, type Pattern } from './workload.js';
import { startCpuMeter, type CpuUse } from './cpu-meter.js';

const TASK = 'noop';

/** The two configurations compared: graphile-worker's defaults, and the throughput settings of its docs. */
export type GraphileSettings = 'defaults' | 'tuned';

/**
 * The settings of graphile-worker's performance page (https://worker.graphile.org/docs/performance#batching),
 * as its release notes for 0.17 recommend them: a local queue of `concurrency + 1` jobs fetched (and locked)
 * in one query, and completions and failures batched (`0`: whatever finished in the same tick, one statement).
 */
function tunedWorkerOptions(concurrency: number): GraphileConfig.WorkerOptions {
  return { localQueue: { size: concurrency + 1 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 };
}

/** A logger that prints nothing (a line per completed job would be most of the work) but counts errors. */
function countingLogger(onError: () => void): Logger {
  return new Logger(() => (level) => {
    if (String(level) === 'error') onError();
  });
}

/**
 * The no-op workload in graphile-worker 0.17's idiomatic form, in its own throwaway database on the
 * same PostgreSQL: one `run()` with a task list holding a no-op task, `concurrentJobs` = concurrency,
 * a pool of `poolSize` connections (aeq's PostgreSQL pool; passed as `pgPool`, the documented
 * alternative to `maxPoolSize`, so that the bench ends it before dropping the database), and jobs
 * added with WorkerUtils' `addJobs` (its bulk API: one statement per chunk of 500, two in flight) on
 * a pool of its own, as a producer process would. The schema is migrated (`migrate()`) before any
 * timing.
 *
 * Completion: graphile-worker deletes a job once it is completed, and its `job:success` /
 * `job:complete` events fire before that write (with `completeJobBatchDelay` the write is batched
 * later still). So, as for pg-boss, once the task has seen every job the jobs table is polled (every
 * 5 ms) until it is empty: the time at which every completion is in the database.
 *
 * `while-running`: the runner is started, and its LISTEN connection up (`pool:listen:success`), before
 * the first `addJobs`; timed from the first `addJobs`. `queued-first`: every job is added, then timed
 * from the call to `run()` (its start-up included, as a worker process's would be).
 */
export async function runGraphileWorkerOnce(
  n: number,
  concurrency: number,
  poolSize: number,
  settings: GraphileSettings,
  pattern: Pattern,
): Promise<LibraryRun> {
  const db = await createThrowawayDatabase('aeq_bench_graphile');
  let failures = 0;
  const logger = countingLogger(() => void failures++);
  const handled = new HandledJobs();
  const events = new EventEmitter() as WorkerEvents;
  let listening = false;
  events.on('pool:listen:success', () => {
    listening = true;
  });
  events.on('job:error', () => void failures++);
  events.on('pool:fatalError', () => void failures++);
  // Errors of idle connections once the run is over (the database is dropped with force) are not failures.
  let over = false;
  const onPoolError = () => {
    if (!over) failures++;
  };
  // Error handlers on the pools and on each of their connections, as graphile-worker asks of a pool passed to it.
  const withHandlers = (pool: pg.Pool) =>
    pool.on('error', onPoolError).on('connect', (client) => void client.on('error', onPoolError));
  const workerPool = withHandlers(new pg.Pool({ connectionString: db.url, max: poolSize }));
  // Two connections: addJobs is called two chunks at a time.
  const producerPool = withHandlers(new pg.Pool({ connectionString: db.url, max: 2 }));
  const utils = await makeWorkerUtils({ pgPool: producerPool, logger });
  const counter = new pg.Client({ connectionString: db.url });
  counter.on('error', onPoolError);
  let runner: Runner | null = null;
  const start = async () =>
    run(
      {
        pgPool: workerPool,
        noHandleSignals: true,
        taskList: {
          [TASK]: async (_payload, helpers) => {
            handled.record(helpers.job.id);
          },
        },
        preset: {
          worker: {
            concurrentJobs: concurrency,
            logger,
            events,
            ...(settings === 'tuned' ? tunedWorkerOptions(concurrency) : {}),
          },
        },
      },
      undefined,
      [],
    );
  try {
    await utils.migrate();
    await counter.connect();
    const remainingInDb = async () =>
      (await counter.query<{ n: number }>('select count(*)::int as n from graphile_worker._private_jobs')).rows[0]?.n ??
      n;
    const adds = chunks(n, (i) => ({ identifier: TASK, payload: { prompt: `dispatch ${i}` } }));
    const timeoutMs = 60_000 + n * 10;
    let t0: number;
    let cpuSince: () => CpuUse;
    if (pattern === 'while-running') {
      runner = await start();
      await waitUntil(
        () => listening,
        30_000,
        () => 'graphile-worker: LISTEN connection not up',
      );
      t0 = performance.now();
      cpuSince = startCpuMeter();
      await inTwoLanes(adds, (c) => utils.addJobs(c));
    } else {
      await inTwoLanes(adds, (c) => utils.addJobs(c));
      t0 = performance.now();
      cpuSince = startCpuMeter();
      runner = await start();
    }
    await waitUntil(
      () => handled.ids.size >= n,
      timeoutMs,
      () => `graphile-worker: task saw ${handled.ids.size} of ${n} jobs`,
    );
    let remaining = n;
    await waitUntil(
      async () => {
        remaining = await remainingInDb();
        return remaining === 0;
      },
      timeoutMs,
      () => `graphile-worker: ${remaining} of ${n} jobs still in the jobs table`,
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSince();
    return { seconds, cpu, completed: n - remaining, duplicates: handled.duplicates, failures };
  } finally {
    over = true;
    await runner?.stop().catch(() => undefined);
    await runner?.promise.catch(() => undefined);
    await utils.release();
    await counter.end().catch(() => undefined);
    await Promise.all([workerPool.end(), producerPool.end()]).catch(() => undefined);
    await db.drop();
  }
}

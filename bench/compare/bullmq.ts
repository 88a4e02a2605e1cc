import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { HandledJobs, chunks, inTwoLanes, waitUntil, type LibraryRun, type Pattern } from './workload.js';
import { startCpuMeter, type CpuUse } from './cpu-meter.js';

/** The Redis server of this machine; `maxRetriesPerRequest: null` is what BullMQ workers require. */
const CONNECTION = {
  host: process.env.AEQ_BENCH_REDIS_HOST ?? '127.0.0.1',
  port: Number(process.env.AEQ_BENCH_REDIS_PORT ?? 6379),
  maxRetriesPerRequest: null,
};

/**
 * The no-op workload in BullMQ's idiomatic form: a Queue fed with `addBulk` (chunks of 500, two in
 * flight), one Worker with a no-op processor and `concurrency`, completed jobs kept (BullMQ's
 * default, as aeq keeps its tasks). Completions are counted with the Worker's local 'completed'
 * event, which fires after the job was moved to the completed set in Redis: the in-process idiom
 * (QueueEvents reads the same from a Redis stream, for listeners in other processes).
 * `while-running`: the Worker is ready before the first `addBulk`; timed from the first `addBulk` to
 * the n-th 'completed'. `queued-first`: every job is added first, then timed from the Worker's
 * construction (it starts at once and connects) to the n-th 'completed'. A fresh queue name per run,
 * obliterated after.
 */
export async function runBullmqOnce(n: number, concurrency: number, pattern: Pattern): Promise<LibraryRun> {
  const name = `aeq-bench-${randomBytes(6).toString('hex')}`;
  const handled = new HandledJobs();
  let completed = 0;
  let failures = 0;
  const queue = new Queue(name, { connection: CONNECTION });
  queue.on('error', () => void failures++);
  let worker: Worker | null = null;
  const startWorker = () => {
    const w = new Worker(
      name,
      async (job) => {
        handled.record(job.id);
      },
      { connection: CONNECTION, concurrency },
    );
    w.on('completed', () => void completed++);
    w.on('failed', () => void failures++);
    w.on('error', () => void failures++);
    return w;
  };
  try {
    await queue.waitUntilReady();
    const bulks = chunks(n, (i) => ({ name: 'noop', data: { prompt: `dispatch ${i}` } }));
    let t0: number;
    let cpuSince: () => CpuUse;
    if (pattern === 'while-running') {
      worker = startWorker();
      await worker.waitUntilReady();
      t0 = performance.now();
      cpuSince = startCpuMeter();
      await inTwoLanes(bulks, (b) => queue.addBulk(b));
    } else {
      await inTwoLanes(bulks, (b) => queue.addBulk(b));
      t0 = performance.now();
      cpuSince = startCpuMeter();
      worker = startWorker();
    }
    await waitUntil(
      () => completed >= n,
      60_000 + n * 5,
      () => `BullMQ: ${completed} of ${n} jobs completed`,
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSince();
    const counts = await queue.getJobCounts('completed', 'failed');
    return {
      seconds,
      cpu,
      completed: counts.completed ?? 0,
      duplicates: handled.duplicates,
      failures: failures + (counts.failed ?? 0),
    };
  } finally {
    await worker?.close();
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { HandledJobs, chunks, inTwoLanes, waitUntil, type LibraryRun } from './workload.js';

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
 * Timed from the first `addBulk` to the n-th 'completed'. A fresh queue name per run, obliterated after.
 */
export async function runBullmqOnce(n: number, concurrency: number): Promise<LibraryRun> {
  const name = `aeq-bench-${randomBytes(6).toString('hex')}`;
  const handled = new HandledJobs();
  let completed = 0;
  let failures = 0;
  const queue = new Queue(name, { connection: CONNECTION });
  const worker = new Worker(
    name,
    async (job) => {
      handled.record(job.id);
    },
    { connection: CONNECTION, concurrency },
  );
  worker.on('completed', () => void completed++);
  worker.on('failed', () => void failures++);
  worker.on('error', () => void failures++);
  queue.on('error', () => void failures++);
  try {
    await Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]);
    const bulks = chunks(n, (i) => ({ name: 'noop', data: { prompt: `dispatch ${i}` } }));
    const t0 = performance.now();
    await inTwoLanes(bulks, (b) => queue.addBulk(b));
    await waitUntil(
      () => completed >= n,
      60_000 + n * 5,
      () => `BullMQ: ${completed} of ${n} jobs completed`,
    );
    const seconds = (performance.now() - t0) / 1000;
    const counts = await queue.getJobCounts('completed', 'failed');
    return {
      seconds,
      completed: counts.completed ?? 0,
      duplicates: handled.duplicates,
      failures: failures + (counts.failed ?? 0),
    };
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

import { afterAll, describe, expect, it } from 'vitest';
import { killChild, spawnService, type ChildService } from '../helpers/child-service.js';
import { until } from '../helpers/wait.js';
import { startReceiver } from '../helpers/receiver.js';
import { fastConfig, tempDir } from '../helpers/service.js';
import { freshPostgresUrl } from '../helpers/stores.js';

const ITEMS = 500;
const onPostgres = process.env.AEQ_TEST_STORE === 'postgres';

/**
 * A 500-item batch with a webhook, its worker killed with SIGKILL halfway: progress is readable throughout, the
 * restarted worker finishes the batch, and exactly one `batch.completed` arrives. On SQLite one process serves and
 * works (it is the one killed); on PostgreSQL an API process stays up while the worker process is killed and another
 * started.
 */
describe(`a 500-item batch survives kill -9 of its worker (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  const children: ChildService[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of children) await killChild(c);
    for (const c of closers) await c();
  });

  it('reports progress, finishes every task after the restart, and sends one batch.completed', {
    timeout: 180_000,
  }, async () => {
    const hooks = await startReceiver();
    closers.push(() => hooks.close());
    const store: Record<string, string> = onPostgres
      ? await freshPostgresUrl().then(({ url, drop }) => {
          closers.push(drop);
          return { DATABASE_URL: url };
        })
      : { AEQ_DATA_DIR: tempDir() };
    const env = {
      ...store,
      AEQ_CONFIG: fastConfig(tempDir(), {
        engines: { ANSWER_ENGINE_A: { concurrency: 64 } },
        // The default lease (30 s): the killed worker's tasks come back through its liveness signal, not the lease.
        scheduler: { livenessMs: 200 },
      }),
      AEQ_ENGINE_TIMEOUT_MS: '10000',
    };
    const start = async (role: 'all' | 'api' | 'worker') => {
      const c = await spawnService({ ...env, AEQ_ROLE: role });
      children.push(c);
      return c;
    };
    let worker = await start('all');
    const api = onPostgres ? await start('api') : worker;
    if (onPostgres) {
      // The first process was started as 'all' only to migrate the schema first; the API process now serves.
      await killChild(worker);
      worker = await start('worker');
    }

    const items = Array.from({ length: ITEMS }, (_, i) => ({
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: `batch crash ${i} sandbox:delay=${200 + (i % 10) * 100}` },
    }));
    const submitted = await api.call(
      'POST',
      `/v1/async/task/batch?webhook=${encodeURIComponent(`${hooks.url}/batch`)}`,
      items,
    );
    expect(submitted.status).toBe(200);
    expect(submitted.body.summary.succeeded).toBe(ITEMS);
    const id = submitted.body.batch.id as string;
    // On SQLite the process that serves is the one killed: read through whichever serves now.
    let reader = api;
    const read = async () => (await reader.call('GET', `/v1/async/batch/${id}`)).body;

    // Progress while it runs: the counts always add up to the total, `done` grows.
    const midway = await until('a fifth of the batch done', read, (b) => b.batch.done >= ITEMS / 5, 60_000);
    const c = midway.batch.counts;
    expect(c.QUEUED + c.PROCESSING + c.COMPLETED + c.FAILED).toBe(ITEMS);
    expect(midway.batch.done).toBeLessThan(ITEMS);
    expect(midway.batch.completedAt).toBeNull();

    worker.proc.kill('SIGKILL');
    await worker.exited;
    expect(hooks.received).toHaveLength(0);
    worker = await start(onPostgres ? 'worker' : 'all');
    if (!onPostgres) reader = worker;
    const afterKill = (await read()).batch;
    expect(afterKill.done).toBeLessThan(ITEMS);
    const finished = await until(
      'batch completed after the restart',
      read,
      (b) => b.batch.completedAt !== null,
      90_000,
    );
    expect(finished.batch).toMatchObject({ size: ITEMS, total: ITEMS, done: ITEMS });
    expect(finished.batch.counts).toEqual({ QUEUED: 0, PROCESSING: 0, COMPLETED: ITEMS, FAILED: 0 });

    // Every item, in order, over pages of 200.
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor === null ? '' : `&cursor=${cursor}`;
      const page = (await reader.call('GET', `/v1/async/batch/${id}?limit=200${q}`)).body;
      for (const it of page.items) {
        expect(it.status).toBe('COMPLETED');
        seen.push(it.index);
      }
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(Array.from({ length: ITEMS }, (_, i) => i));

    await hooks.waitUntil((all) => all.length >= 1, 15_000, 'batch.completed');
    await new Promise((r) => setTimeout(r, 1500)); // three more completer ticks
    expect(hooks.received).toHaveLength(1);
    const [d] = hooks.received;
    expect(d?.headers['webhook-id']).toBe(`msg_${id}`);
    expect(d?.body).toMatchObject({ type: 'batch.completed', batch: { id, total: ITEMS, done: ITEMS } });
    expect(d?.body.batch.counts.COMPLETED).toBe(ITEMS);
  });
});

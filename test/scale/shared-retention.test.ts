import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sandbox/server.js';
import { killChild, spawnService, type ChildService } from '../helpers/child-service.js';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';

const skip = privatePostgresUnavailable();
if (skip) console.warn(`[shared retention test] skipped: ${skip}`);

/** Retention when several processes share the store: expiry is seen by every API, rows are swept once. */
describe.skipIf(skip !== null)('retention across processes', () => {
  let pgsrv: PrivatePostgres | undefined;
  let sim: Simulator | undefined;
  const procs: ChildService[] = [];

  afterAll(async () => {
    await Promise.all(procs.map((c) => killChild(c, 'SIGTERM')));
    await sim?.close();
    await pgsrv?.stop();
  });

  it('expires tasks for every API process and sweeps their rows', async () => {
    pgsrv = await startPrivatePostgres();
    sim = await startSimulator();
    const env = { DATABASE_URL: pgsrv.url, AEQ_SANDBOX_URL: sim.url, AEQ_RETENTION_MS: '4000' };
    const apiA = await spawnService({ ...env, AEQ_ROLE: 'api' }, 90_000);
    procs.push(apiA);
    const [apiB, worker] = await Promise.all([
      spawnService({ ...env, AEQ_ROLE: 'api' }, 90_000),
      spawnService({ ...env, AEQ_ROLE: 'worker' }, 90_000),
    ]);
    procs.push(apiB!, worker!);

    const items = Array.from({ length: 20 }, (_, i) => ({
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: `retained ${i}` },
    }));
    const r = await apiA.call('POST', '/v1/async/task/batch', items);
    const ids: string[] = r.body.results.map((x: { task: { id: string } }) => x.task.id);
    const deadline = Date.now() + 30_000;
    while ((await apiB!.call('GET', '/stats')).body.tasks.COMPLETED < 20) {
      if (Date.now() > deadline) throw new Error('tasks did not complete');
      await new Promise((res) => setTimeout(res, 200));
    }
    expect((await apiB!.call('GET', `/v1/async/task/${ids[0]}`)).status).toBe(200);
    // After the window both APIs answer 404 and count nothing, then the sweepers delete the rows.
    await new Promise((res) => setTimeout(res, 4500));
    for (const api of [apiA, apiB!]) {
      expect((await api.call('GET', `/v1/async/task/${ids[0]}`)).status).toBe(404);
      expect((await api.call('GET', '/stats')).body.tasks).toEqual({
        QUEUED: 0,
        PROCESSING: 0,
        COMPLETED: 0,
        FAILED: 0,
      });
    }
    const db = new pg.Client({ connectionString: pgsrv.url });
    await db.connect();
    try {
      const until = Date.now() + 15_000;
      for (;;) {
        const n = (await db.query('select count(*)::int as n from tasks')).rows[0] as { n: number };
        if (n.n === 0) break;
        if (Date.now() > until) throw new Error(`${n.n} expired rows left`);
        await new Promise((res) => setTimeout(res, 250));
      }
    } finally {
      await db.end();
    }
  }, 180_000);
});

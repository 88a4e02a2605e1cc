import { afterAll, describe, expect, it } from 'vitest';
import { killChild, openStoreFile, spawnService, type ChildService } from '../helpers/child-service.js';
import { startReceiver } from '../helpers/receiver.js';
import { fastConfig, tempDir } from '../helpers/service.js';

const TASKS = 200;

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('crash recovery: kill -9 with tasks in flight, restart on the same data dir', () => {
  const children: ChildService[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of children) await killChild(c);
    for (const c of closers) await c();
  });

  it('every accepted task ends COMPLETED exactly once, with exactly one acknowledged webhook each', async () => {
    const hooks = await startReceiver();
    closers.push(() => hooks.close());
    const dataDir = tempDir();
    const env = {
      AEQ_DATA_DIR: dataDir,
      // The default lease (30 s): the restarted service hands back the dead one's tasks and deliveries at start-up
      // (one process owns the SQLite file), long before the leases would run out.
      AEQ_CONFIG: fastConfig(tempDir(), { engines: { ANSWER_ENGINE_A: { concurrency: 64 } } }),
      AEQ_WEBHOOK_RETRY_BASE_MS: '50',
      AEQ_WEBHOOK_TIMEOUT_MS: '1000',
      AEQ_ENGINE_TIMEOUT_MS: '10000',
    };

    const first = await spawnService(env);
    children.push(first);
    const batch = Array.from({ length: TASKS }, (_, i) => ({
      taskType: 'ANSWER_ENGINE_A',
      // Spread durations, so at any moment some tasks are done and many are in flight.
      payload: { prompt: `crash test ${i} sandbox:delay=${300 + (i % 12) * 150}` },
      idempotencyKey: `crash-${i}`,
      webhook: { url: `${hooks.url}/t/${i}` },
    }));
    const submitted = await first.call('POST', '/v1/async/task/batch', batch);
    expect(submitted.status).toBe(200);
    expect(submitted.body.summary.succeeded).toBe(TASKS);
    const ids: string[] = submitted.body.results.map((r: { task: { id: string } }) => r.task.id);

    // Let a part finish and be acknowledged, then stop acknowledging so no delivery is between
    // "receiver said 2xx" and "service recorded it" at the moment of the kill.
    await hooks.waitUntil(() => hooks.acknowledged().length >= 30, 30_000, '30 acknowledged deliveries');
    hooks.setPolicy(() => 'hang');
    const db = openStoreFile(dataDir);
    closers.push(async () => {
      db.close();
    });
    const ackedIds = () => new Set(hooks.acknowledged().map((r) => r.body.task.id as string));
    await until('every acknowledged delivery recorded as DELIVERED', () => {
      const acked = [...ackedIds()];
      const delivered = db.prepare(`select task_id from webhook_deliveries where status = 'DELIVERED'`).all() as Array<{
        task_id: string;
      }>;
      const set = new Set(delivered.map((r) => r.task_id));
      return acked.every((id) => set.has(id));
    });
    const processing = (
      db.prepare(`select count(*) as n from tasks where status = 'PROCESSING'`).get() as { n: number }
    ).n;
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(processing).toBeGreaterThan(0);
    hooks.setPolicy(() => 200);

    const second = await spawnService(env);
    children.push(second);
    await until(
      'every task terminal',
      async () => {
        const s = await second.call('GET', '/stats');
        return s.body.tasks.COMPLETED + s.body.tasks.FAILED === TASKS;
      },
      60_000,
    );
    for (const id of ids) {
      const v = await second.call('GET', `/v1/async/task/${id}`);
      expect(v.body.task.status, id).toBe('COMPLETED');
    }
    await hooks.waitUntil(
      () => new Set(hooks.acknowledged().map((r) => r.body.task.id)).size === TASKS,
      60_000,
      'an acknowledged delivery per task',
    );

    // Exactly one acknowledged delivery per task id.
    const acks = new Map<string, number>();
    for (const r of hooks.acknowledged()) acks.set(r.body.task.id, (acks.get(r.body.task.id) ?? 0) + 1);
    expect([...acks.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(acks.size).toBe(TASKS);
    for (const r of hooks.acknowledged()) expect(r.body.task.status).toBe('COMPLETED');

    // No attempt was sent twice: the requests a task's receiver saw never exceed the attempts recorded.
    const attempts = db.prepare(`select task_id, count(*) as n from webhook_attempts group by task_id`).all() as Array<{
      task_id: string;
      n: number;
    }>;
    const recorded = new Map(attempts.map((a) => [a.task_id, a.n]));
    const seen = new Map<string, number>();
    for (const r of hooks.received) seen.set(r.body.task.id, (seen.get(r.body.task.id) ?? 0) + 1);
    for (const [id, n] of seen) expect(n, id).toBeLessThanOrEqual(recorded.get(id) ?? 0);
    const rows = db.prepare(`select count(*) as n from webhook_deliveries`).get() as { n: number };
    expect(rows.n).toBe(TASKS);

    // The restarted service did the remaining work: tasks that were in flight were attempted again.
    const retried = db.prepare(`select count(*) as n from tasks where attempts > 1`).get() as { n: number };
    expect(retried.n).toBeGreaterThan(0);
  });
});

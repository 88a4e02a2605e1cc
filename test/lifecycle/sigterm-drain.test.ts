import { afterAll, describe, expect, it } from 'vitest';
import { killChild, openStoreFile, spawnService, type ChildService } from '../helpers/child-service.js';
import { fastConfig, tempDir } from '../helpers/service.js';

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('SIGTERM drains the service', () => {
  const children: ChildService[] = [];
  afterAll(async () => {
    for (const c of children) await killChild(c);
  });

  it('exits 0 leaving every task terminal or back in QUEUED, none stuck PROCESSING', async () => {
    const dataDir = tempDir();
    // Default (long) leases: after the restart no lease has expired, so the reaper cannot hide a task left PROCESSING.
    const env = {
      AEQ_DATA_DIR: dataDir,
      AEQ_CONFIG: fastConfig(tempDir(), { engines: { ANSWER_ENGINE_A: { concurrency: 4 } } }),
      AEQ_ENGINE_TIMEOUT_MS: '60000',
    };
    const svc = await spawnService(env);
    children.push(svc);

    const submit = async (prompt: string) => {
      const r = await svc.call('POST', '/v1/async/task', { taskType: 'ANSWER_ENGINE_A', payload: { prompt } });
      expect(r.status).toBe(202);
      return r.body.task.id as string;
    };
    // In flight past the drain grace period: must be handed back to the queue.
    const stuck = await submit('never answers sandbox:timeout');
    // In flight, finishing during the drain.
    const finishing = [
      await submit('a sandbox:delay=1500'),
      await submit('b sandbox:delay=1500'),
      await submit('c sandbox:delay=1500'),
    ];
    await until('four tasks in flight', async () => (await svc.call('GET', '/stats')).body.tasks.PROCESSING === 4);
    // Waiting for a slot.
    const waiting: string[] = [];
    for (let i = 0; i < 10; i++) waiting.push(await submit(`queued ${i} sandbox:delay=1500`));

    svc.proc.kill('SIGTERM');
    const exit = await svc.exited;
    expect(exit).toEqual({ code: 0, signal: null });

    const db = openStoreFile(dataDir);
    try {
      const status = (id: string) =>
        (db.prepare('select status from tasks where id = ?').get(id) as { status: string }).status;
      expect(status(stuck)).toBe('QUEUED');
      for (const id of finishing) expect(status(id)).toBe('COMPLETED');
      for (const id of waiting) expect(['QUEUED', 'COMPLETED']).toContain(status(id));
      const processing = db.prepare(`select count(*) as n from tasks where status = 'PROCESSING'`).get() as {
        n: number;
      };
      expect(processing.n).toBe(0);
    } finally {
      db.close();
    }

    // After a restart (engine paused, so nothing moves) the API shows the same.
    const again = await spawnService({ ...env, AEQ_CONFIG: fastConfig(tempDir(), { paused: ['ANSWER_ENGINE_A'] }) });
    children.push(again);
    const view = async (id: string) => (await again.call('GET', `/v1/async/task/${id}`)).body;
    const stuckView = await view(stuck);
    expect(stuckView.task.status).toBe('QUEUED');
    expect(stuckView).not.toHaveProperty('error');
    for (const id of finishing) expect((await view(id)).task.status).toBe('COMPLETED');
    for (const id of [...finishing, ...waiting, stuck]) expect((await view(id)).task.status).not.toBe('PROCESSING');
    expect((await again.call('GET', '/stats')).body.tasks.PROCESSING).toBe(0);
  }, 45_000);
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.js';
import { killChild, spawnService, type ChildService } from '../helpers/child-service.js';
import { tempDir } from '../helpers/service.js';

/** Polls a child's task until it ends. */
async function waitDone(child: ChildService, id: string): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const status = (await child.call('GET', `/v1/async/task/${id}`)).body?.task?.status as string;
    if (status === 'COMPLETED' || status === 'FAILED') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${id} did not end`);
}

/**
 * One process per SQLite data dir, with real processes: a second `aeq serve` on the same dir exits at once, non-zero,
 * naming the holder, and the first goes on serving; after a kill -9 the lock is free again; a process that cannot
 * listen stops everything it started and exits non-zero.
 */
describe('one process per SQLite data dir', () => {
  const children: ChildService[] = [];
  afterAll(async () => {
    for (const c of children) await killChild(c);
  });

  it('a second process on the same dir exits at once naming the holder; the first goes on', async () => {
    const dataDir = tempDir();
    const first = await spawnService({ AEQ_DATA_DIR: dataDir });
    children.push(first);
    const refused = await spawnService({ AEQ_DATA_DIR: dataDir }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/service exited before listening \(code 1,/);
    expect(refused).toContain(`aeq: the data dir ${dataDir} is in use by process ${first.proc.pid} on `);
    expect(refused).toContain('one aeq process per SQLite data dir');
    // The first still serves, and its tasks are its own (the second handed nothing back).
    const submitted = await first.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'still mine' },
    });
    expect(submitted.status).toBe(202);
    expect(await waitDone(first, submitted.body.task.id)).toBe('COMPLETED');
  }, 90_000);

  it('kill -9 frees the dir: the next process starts on it', async () => {
    const dataDir = tempDir();
    const first = await spawnService({ AEQ_DATA_DIR: dataDir });
    children.push(first);
    await killChild(first, 'SIGKILL');
    const next = await spawnService({ AEQ_DATA_DIR: dataDir });
    children.push(next);
    expect((await next.call('GET', '/stats')).status).toBe(200);
  }, 90_000);

  it('a port in use: the process stops what it started and exits non-zero, saying so', async () => {
    const holder = await spawnService({ AEQ_DATA_DIR: tempDir() });
    children.push(holder);
    const port = new URL(holder.url).port;
    const dataDir = tempDir();
    const startedAt = Date.now();
    const refused = await spawnService({ AEQ_DATA_DIR: dataDir, PORT: port }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/service exited before listening \(code 1,/);
    expect(refused).toContain(`aeq: 127.0.0.1:${port} is in use by another process; set PORT`);
    // It exited on its own (spawnService waits 30 s before giving up), and left its data dir free.
    expect(Date.now() - startedAt).toBeLessThan(30_000);
    const after = await spawnService({ AEQ_DATA_DIR: dataDir });
    children.push(after);
    expect((await after.call('GET', '/health')).status).toBe(200);
  }, 90_000);

  it("a dir serves one mode: the live service refuses the sandbox's store, and the sandbox a live one", async () => {
    const sandboxDir = tempDir();
    const sandbox = await spawnService({ AEQ_DATA_DIR: sandboxDir });
    const queued = await sandbox.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'sandbox only sandbox:delay=60000' },
    });
    expect(queued.status).toBe(202);
    await killChild(sandbox, 'SIGKILL');
    expect(fs.readFileSync(path.join(sandboxDir, 'aeq.mode'), 'utf8')).toBe('sandbox\n');
    // Live on the sandbox's store: refused at once, before its worker could take the task to the real host.
    const live = await spawnService({ AEQ_DATA_DIR: sandboxDir, AEQ_SANDBOX: '0' }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(live).toMatch(/service exited before listening \(code 1,/);
    expect(live).toContain(`aeq: the data dir ${sandboxDir} holds the sandbox's store (made with AEQ_SANDBOX=1)`);
    // And the other way round.
    const liveDir = tempDir();
    const first = await spawnService({ AEQ_DATA_DIR: liveDir, AEQ_SANDBOX: '0' });
    await killChild(first);
    const refused = await spawnService({ AEQ_DATA_DIR: liveDir }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(refused).toContain(`aeq: the data dir ${liveDir} holds a live store (made without AEQ_SANDBOX)`);
    // The sandbox's own store still opens in the sandbox, its task still there.
    const again = await spawnService({ AEQ_DATA_DIR: sandboxDir });
    children.push(again);
    expect((await again.call('GET', `/v1/async/task/${queued.body.task.id}`)).status).toBe(200);
  }, 120_000);

  it('without AEQ_DATA_DIR the sandbox keeps its store in ./data/sandbox, the live service in ./data', () => {
    const key = { AEQ_API_KEY: 'a-key-of-sixteen-or-more' };
    expect(loadSettings({ ...key, AEQ_SANDBOX: '1' }).dataDir).toBe(path.resolve('data', 'sandbox'));
    expect(loadSettings({ ...key }).dataDir).toBe(path.resolve('data'));
    expect(loadSettings({ ...key, AEQ_SANDBOX: '1', AEQ_DATA_DIR: '/srv/aeq' }).dataDir).toBe('/srv/aeq');
  });
});

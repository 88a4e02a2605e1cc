import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskQueue } from '../../src/store/ports.js';
import { fastConfig, startService, submit, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';

/** An hour: a task held by a lost claim could only come back by its lease's expiry, long after this test ends. */
const HOUR = 3_600_000;

/**
 * A claim that the store committed but the worker never received (the connection dropped while its rows came back;
 * here the store's claim runs, then the call fails): the worker gives the claim back at once, so its tasks run within
 * seconds at attempt 1, instead of waiting an hour for their lease to expire.
 */
describe('a claim lost on the way back to the worker', () => {
  let svc: RunningService;
  const lines: string[] = [];
  let lost: string[] = [];
  beforeAll(async () => {
    const config = fastConfig(tempDir(), { scheduler: { leaseMs: HOUR } });
    svc = await startService({ AEQ_CONFIG: config }, { logLines: lines });
    const tasks: TaskQueue = svc.app.store.tasks;
    const claim = tasks.claim.bind(tasks);
    tasks.claim = async (a) => {
      const claimed = await claim(a);
      if (lost.length > 0 || claimed.length === 0) return claimed;
      lost = claimed.map((t) => t.id);
      throw new Error('Connection terminated unexpectedly');
    };
  });
  afterAll(async () => {
    await svc.stop();
  });

  it('gives its tasks back at once; they complete at attempt 1', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map((n) => submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `given back ${n}` } })),
    );
    for (const id of ids) expect((await waitTerminal(svc, id)).task.status).toBe('COMPLETED');
    expect(lost.length).toBeGreaterThan(0);
    for (const id of lost) expect((await svc.app.store.tasks.get({ id, notBefore: 0 }))?.attempts).toBe(1);
    const given = lines
      .map((l) => JSON.parse(l) as { msg: string; tasks?: number })
      .find((l) => l.msg === 'failed claim given back');
    expect(given?.tasks).toBe(lost.length);
  });
});

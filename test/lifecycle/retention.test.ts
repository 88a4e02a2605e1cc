import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliverDue,
  fastConfig,
  movableClock,
  startService,
  submit,
  tempDir,
  waitTerminal,
  type RunningService,
} from '../helpers/service.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { deliveryAttempts, deliveryRow } from '../helpers/store-inspect.js';

const RETENTION_MS = 60_000;

describe('retention (AEQ_RETENTION_MS)', () => {
  const clock = movableClock();
  let svc: RunningService;
  let hooks: Receiver;
  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService(
      {
        AEQ_CONFIG: fastConfig(tempDir(), { scheduler: { leaseMs: 3_600_000 } }),
        AEQ_RETENTION_MS: String(RETENTION_MS),
      },
      { clock },
    );
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  it('a finished task answers 404 once it expires, and the sweeper deletes its rows', async () => {
    const done = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'keep me a while' },
      webhook: { url: `${hooks.url}/r` },
    });
    await waitTerminal(svc, done);
    await deliverDue(svc);
    expect((await deliveryRow(svc, done))?.status).toBe('DELIVERED');

    clock.advance(RETENTION_MS - 5_000);
    expect((await svc.call('GET', `/v1/async/task/${done}`)).status).toBe(200);
    // Younger than the window: survives a sweep.
    const young = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'young' } });
    await waitTerminal(svc, young);

    clock.advance(10_000);
    const expired = await svc.call('GET', `/v1/async/task/${done}`);
    expect(expired.status).toBe(404);
    expect(expired.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect(expired.body.error.details).toEqual({ id: done });
    // Hidden before it is deleted, deleted after the sweep.
    expect(await svc.app.store.tasks.get({ id: done, notBefore: 0 })).toBeDefined();
    const deleted = await svc.app.sweeper.runOnce();
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await svc.app.store.tasks.get({ id: done, notBefore: 0 })).toBeUndefined();
    expect(await deliveryRow(svc, done)).toBeUndefined();
    expect(await deliveryAttempts(svc, done)).toHaveLength(0);

    expect((await svc.call('GET', `/v1/async/task/${young}`)).status).toBe(200);
    expect(await svc.app.store.tasks.get({ id: young, notBefore: 0 })).toBeDefined();
  });

  it('expired tasks no longer count in /stats', async () => {
    const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'counted' } });
    await waitTerminal(svc, id);
    const before = (await svc.call('GET', '/stats')).body.tasks.COMPLETED as number;
    clock.advance(RETENTION_MS + 1_000);
    const after = (await svc.call('GET', '/stats')).body.tasks.COMPLETED as number;
    expect(after).toBeLessThan(before);
  });

  it('an expired idempotency key can be used again once the sweeper deleted the old task', async () => {
    const key = `retained-${Date.now()}`;
    const first = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'k' },
      idempotencyKey: key,
    });
    expect(first.status).toBe(202);
    expect(
      (
        await svc.call('POST', '/v1/async/task', {
          taskType: 'ANSWER_ENGINE_A',
          payload: { prompt: 'k' },
          idempotencyKey: key,
        })
      ).status,
    ).toBe(409);
    await waitTerminal(svc, first.body.task.id);
    clock.advance(RETENTION_MS + 1_000);
    await svc.app.sweeper.runOnce();
    const again = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'k' },
      idempotencyKey: key,
    });
    expect(again.status).toBe(202);
    expect(again.body.task.id).not.toBe(first.body.task.id);
  });
});

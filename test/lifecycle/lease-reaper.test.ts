import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_ERROR_SENTENCES } from '../../src/domain/engine-errors.js';
import type { LeaseReaper } from '../../src/queue/lease-reaper.js';
import {
  ALL_ENGINES,
  deliverDue,
  fastConfig,
  startService,
  steppedClock,
  submit,
  tempDir,
  type RunningService,
} from '../helpers/service.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

/** An hour: the reaper's own timer (every third of a lease) never fires during the test, so only its steps reap. */
const LEASE_MS = 3_600_000;

/**
 * The lease reaper, stepped: a "dead worker" (the test) claims a task through the store and never
 * finishes it; the service's reaper gives it back once the clock passes its lease, and fails it
 * (with its webhook) when no attempt is left. Engines are paused so the service's own worker claims nothing.
 */
describe('lease reaper (runOnce on a stepped clock)', () => {
  const clock = steppedClock();
  let svc: RunningService;
  let hooks: Receiver;
  let reaper: LeaseReaper;
  beforeAll(async () => {
    hooks = await startReceiver();
    const config = fastConfig(tempDir(), {
      paused: [...ALL_ENGINES],
      engines: { ANSWER_ENGINE_A: { maxAttempts: 2 } },
      scheduler: { leaseMs: LEASE_MS },
    });
    svc = await startService({ AEQ_CONFIG: config }, { clock });
    reaper = svc.app.worker!.reaper;
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  /** Claims the task as a worker that then dies: the lease is never renewed or released. */
  const claimAndDie = async (id: string) => {
    const [claimed] = await svc.app.store.tasks.claim({
      taskType: 'ANSWER_ENGINE_A',
      limit: 1,
      concurrency: 1,
      workerId: 'dead-worker',
      now: clock.now(),
      leaseMs: LEASE_MS,
    });
    expect(claimed?.id).toBe(id);
  };
  const status = async (id: string) => (await svc.call('GET', `/v1/async/task/${id}`)).body;

  it('leaves a live lease alone, requeues the task once its lease expired, fails it with no attempt left', async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'orphaned' },
      webhook: { url: `${hooks.url}/reaped` },
    });
    await claimAndDie(id);
    expect((await status(id)).task.status).toBe('PROCESSING');

    // Up to the lease's end the task stays with its worker.
    clock.advance(LEASE_MS - 1);
    expect(await reaper.runOnce()).toEqual({ requeued: 0, failed: 0 });
    expect((await status(id)).task.status).toBe('PROCESSING');

    // Past it, the task goes back to the queue (one of its two attempts is left).
    clock.advance(2);
    expect(await reaper.runOnce()).toEqual({ requeued: 1, failed: 0 });
    expect((await status(id)).task.status).toBe('QUEUED');
    expect(await reaper.runOnce()).toEqual({ requeued: 0, failed: 0 });

    // The second attempt's worker dies too: no attempt is left, so the task fails ENGINE_TIMEOUT.
    await claimAndDie(id);
    clock.advance(LEASE_MS + 1);
    expect(await reaper.runOnce()).toEqual({ requeued: 0, failed: 1 });
    const failed = await status(id);
    expect(failed.task.status).toBe('FAILED');
    expect(failed.error).toBe(`ENGINE_TIMEOUT: ${ENGINE_ERROR_SENTENCES.ENGINE_TIMEOUT}`);
    expect(failed.credits.creditsCharged).toBe(0);

    // The failure's webhook was written with it and goes out on the sender's next step.
    await deliverDue(svc);
    expect(hooks.received.map((r) => [r.path, r.body.task.id, r.body.task.status])).toEqual([
      ['/reaped', id, 'FAILED'],
    ]);
  });
});

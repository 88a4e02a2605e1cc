import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fastConfig,
  startService,
  submit,
  tempDir,
  waitTerminal,
  workDue,
  type RunningService,
} from '../helpers/service.js';

const DELAY_MS = 300;

describe('per-engine concurrency', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({
      AEQ_CONFIG: fastConfig(tempDir(), { engines: { ANSWER_ENGINE_A: { concurrency: 2 } } }),
      AEQ_ENGINE_TIMEOUT_MS: '120000',
    });
  });
  afterAll(() => svc.stop());

  it('never runs more tasks of an engine at once than its concurrency', async () => {
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `c${i} sandbox:delay=${DELAY_MS}` } }),
      ),
    );
    // Each finish frees a slot and claims the next task: stepping until idle runs the queue out.
    await workDue(svc);
    for (const id of ids) expect((await waitTerminal(svc, id)).task.status).toBe('COMPLETED');
    // Each attempt lasts at least DELAY_MS. Had three run at once, three finishes would fall within DELAY_MS of each
    // other; with two slots, finish i+2 comes at least DELAY_MS after finish i (a slow machine only spreads them more).
    const finished = (
      await Promise.all(ids.map(async (id) => (await svc.app.store.tasks.get({ id, notBefore: 0 }))?.finishedAt ?? 0))
    ).sort((a, b) => a - b);
    for (const [i, f] of finished.slice(2).entries()) {
      expect(f - (finished[i] ?? 0), `finishes ${i + 1} and ${i + 3}`).toBeGreaterThanOrEqual(DELAY_MS - 5);
    }
    const cap = (await svc.call('GET', '/capacity')).body.answer_engine_a;
    expect(cap.concurrency).toBe(2);
    expect(cap.inFlight).toBe(0);
  });

  it('a claim step fills the free slots, leaves the rest queued; with both held, the next claims nothing', async () => {
    const worker = svc.app.worker!;
    // The upstream never answers these (the engine timeout is two minutes): the attempts hold their slots until stop.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `held ${i} sandbox:timeout` } }),
      ),
    );
    // After the claims the submits woke, a step has both slots taken.
    await worker.runOnce();
    expect(worker.inFlightCount()).toBe(2);
    expect((await svc.call('GET', '/stats')).body.byEngine.ANSWER_ENGINE_A).toMatchObject({
      QUEUED: 6,
      PROCESSING: 2,
    });
    expect(await worker.runOnce()).toBe(0);
    expect(worker.inFlightCount()).toBe(2);
    expect((await svc.call('GET', '/capacity')).body.answer_engine_a).toMatchObject({ inFlight: 2, queued: 6 });
  });
});

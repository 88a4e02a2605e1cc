import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, startService, submit, tempDir, waitTerminal, workDue, type RunningService } from '../helpers/service.js';

describe('per-engine concurrency', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir(), { engines: { ANSWER_ENGINE_A: { concurrency: 2 } } }) });
  });
  afterAll(() => svc.stop());

  it('never runs more tasks of an engine at once than its concurrency', async () => {
    const worker = svc.app.worker!;
    const t0 = Date.now();
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `c${i} sandbox:delay=1000` } })));
    // A claim step (after the claims the submits woke) fills the two slots and leaves six waiting...
    await worker.runOnce();
    expect(worker.inFlightCount()).toBe(2);
    const during = (await svc.call('GET', '/stats')).body.byEngine.ANSWER_ENGINE_A;
    expect(during).toMatchObject({ QUEUED: 6, PROCESSING: 2 });
    // ...and while both run, another step claims nothing.
    expect(await worker.runOnce()).toBe(0);
    expect(worker.inFlightCount()).toBe(2);
    // Each finish frees a slot and claims the next task: stepping until idle runs the queue out.
    await workDue(svc);
    expect((await svc.call('GET', '/stats')).body.byEngine.ANSWER_ENGINE_A).toMatchObject({ QUEUED: 0, PROCESSING: 0, COMPLETED: 8 });
    for (const id of ids) expect((await waitTerminal(svc, id)).task.status).toBe('COMPLETED');
    // Each attempt lasts a second, two at a time: the (2k+1)th and (2k+2)th finishes come k+1 seconds in at the earliest.
    const finished = (await Promise.all(ids.map(async (id) => (await svc.app.store.getTask(id, 0))?.finishedAt ?? 0))).sort((a, b) => a - b);
    finished.forEach((f, i) => expect(f - t0, `finish ${i + 1}`).toBeGreaterThanOrEqual((Math.floor(i / 2) + 1) * 1000 - 20));
    const cap = (await svc.call('GET', '/capacity')).body.answer_engine_a;
    expect(cap.concurrency).toBe(2);
    expect(cap.inFlight).toBe(0);
  });
});

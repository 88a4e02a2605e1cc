import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, startService, submit, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';

describe('per-engine concurrency', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir(), { engines: { ANSWER_ENGINE_A: { concurrency: 2 } } }) });
  });
  afterAll(() => svc.stop());

  it('never runs more tasks of an engine at once than its concurrency', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `c${i} sandbox:delay=250` } })));
    let maxSeen = 0;
    let sawQueued = false;
    for (;;) {
      const s = (await svc.call('GET', '/stats')).body.byEngine.ANSWER_ENGINE_A;
      maxSeen = Math.max(maxSeen, s.PROCESSING);
      if (s.QUEUED > 0 && s.PROCESSING === 2) sawQueued = true;
      if (s.COMPLETED + s.FAILED === 8) break;
      await new Promise((r) => setTimeout(r, 15));
    }
    expect(maxSeen).toBe(2);
    expect(sawQueued).toBe(true);
    for (const id of ids) expect((await waitTerminal(svc, id)).task.status).toBe('COMPLETED');
    const cap = (await svc.call('GET', '/capacity')).body.answer_engine_a;
    expect(cap.concurrency).toBe(2);
    expect(cap.inFlight).toBe(0);
  });
});

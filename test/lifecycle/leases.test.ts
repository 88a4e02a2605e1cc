import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, runTask, startService, tempDir, type RunningService } from '../helpers/service.js';

describe('leases: heartbeats keep a long attempt its task', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({
      AEQ_CONFIG: fastConfig(tempDir(), { scheduler: { leaseMs: 600, heartbeatMs: 150 } }),
      AEQ_ENGINE_TIMEOUT_MS: '10000',
    });
  });
  afterAll(() => svc.stop());

  it('an attempt over several lease periods completes once, in one attempt (the reaper never takes it)', async () => {
    const r = await runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'long one sandbox:delay=2500' } });
    expect(r.task.status).toBe('COMPLETED');
    expect((await svc.app.store.tasks.get({ id: r.task.id, notBefore: 0 }))?.attempts).toBe(1);
  });
});

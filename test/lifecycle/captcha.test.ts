import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_ERROR_SENTENCES } from '../../src/domain/engine-errors.js';
import { fastConfig, runTask, startService, tempDir, type RunningService } from '../helpers/service.js';

describe('sandbox:captcha', () => {
  let svc: RunningService;
  beforeAll(async () => {
    // A long cooldown, so the exit addresses the task cooled are still resting when we look.
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir(), { scheduler: { exitCooldownMs: 600_000 } }) });
  });
  afterAll(() => svc.stop());

  const cooling = () => svc.app.pools.exits.list().filter((r) => svc.app.pools.exits.coolingUntil(r) > Date.now());

  it('cools each exit address it hits, retries another, fails with ENGINE_FAILED once attempts run out', async () => {
    expect(cooling()).toHaveLength(0);
    const r = await runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'blocked sandbox:captcha' } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(`ENGINE_FAILED: ${ENGINE_ERROR_SENTENCES.ENGINE_FAILED}`);
    const attempts = (await svc.app.store.tasks.get({ id: r.task.id, notBefore: 0 }))?.attempts;
    expect(attempts).toBe(3);
    // Three attempts, three different exit addresses now resting: a cooled one was never reused.
    expect(cooling()).toHaveLength(3);
    expect(new Set(cooling().map((x) => x.id)).size).toBe(3);
  });

  it('a normal task still completes on the exit addresses that are not resting', async () => {
    const r = await runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'a normal question' } });
    expect(r.task.status).toBe('COMPLETED');
  });
});

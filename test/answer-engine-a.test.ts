import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, type RunningService } from './helpers/service.js';

describe('ANSWER_ENGINE_A through the sandbox', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ AEQ_ENGINE_TIMEOUT_MS: '1500' });
  });
  afterAll(() => svc.stop());

  it('completes with renumbered sources', async () => {
    const r = await runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'what is pydantic' } });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.sources.map((s: { position: number }) => s.position)).toEqual([1, 2, 3]);
    expect(r.response.markdown).toMatch(/\[1\]/);
    expect(r.credits).toEqual({ creditsToCharge: 2, creditsCharged: 2 });
  });

  it('fails with ENGINE_TIMEOUT when the upstream never answers', async () => {
    const r = await runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x sandbox:timeout' } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_TIMEOUT: /);
  });
});

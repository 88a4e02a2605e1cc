import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

describe('SEARCH_C_ASSISTANT through the sandbox (HTTP + WebSocket)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const config = writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });
    svc = await startService({ AEQ_CONFIG: config, AEQ_ENGINE_TIMEOUT_MS: '1500' });
  });
  afterAll(() => svc.stop());

  it('completes with the streamed answer and citations in arrival order, late ones included', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_ASSISTANT',
      payload: { prompt: 'what is a heat pump', country: 'US' },
    });
    expect(r.task.status).toBe('COMPLETED');
    const sources = r.response.sources as Array<{ position: number; url: string; label: string }>;
    expect(sources.map((s) => s.position)).toEqual([1, 2, 3]);
    expect(sources.map((s) => s.url)).toEqual(
      [1, 2, 3].map((i) => expect.stringMatching(new RegExp(`/what-is-a-heat-pump-${i}$`))),
    );
    expect(sources[0]?.label).toBe('what is a heat pump — source 1');
    // The fourth citation repeats the first (with tracking parameters): its marker becomes [1].
    expect(r.response.markdown).toMatch(/^\*\*what is a heat pump\*\*\n\n/);
    expect(r.response.markdown).toMatch(/ \[2\]\n\n.* \[1\]\[3\]\n\n.* \[1\]$/);
    expect(r.response.text).not.toMatch(/\[\d\]|\*\*/);
    expect(r.response.text).toMatch(/^what is a heat pump\n\nwhat is a heat pump /);
    expect(r.credits).toEqual({ creditsToCharge: 2, creditsCharged: 2 });
  });

  it('answers a Hangul prompt in Korean', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_ASSISTANT',
      payload: { prompt: '히트펌프란 무엇인가', country: 'KR' },
    });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.text).toMatch(/[가-힣]/);
  });

  it('fails with ENGINE_NO_RESULT when done arrives without text', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_ASSISTANT',
      payload: { prompt: 'nothing sandbox:empty', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_NO_RESULT: /);
  });

  it('fails with ENGINE_FAILED when every attempt meets a challenge', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_ASSISTANT',
      payload: { prompt: 'heat pump sandbox:captcha', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_FAILED: /);
  });

  it('completes after one server error with flaky=1', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_ASSISTANT',
      payload: { prompt: 'boilers sandbox:flaky=1', country: 'US' },
    });
    expect(r.task.status).toBe('COMPLETED');
    expect(r.response.sources).toHaveLength(3);
  });

  it('fails with ENGINE_FAILED when the upstream keeps failing', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_ASSISTANT',
      payload: { prompt: 'boilers sandbox:error', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_FAILED: /);
  });

  it('fails with ENGINE_TIMEOUT when done never arrives', async () => {
    const r = await runTask(svc, {
      taskType: 'SEARCH_C_ASSISTANT',
      payload: { prompt: 'slow sandbox:timeout', country: 'US' },
    });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toMatch(/^ENGINE_TIMEOUT: /);
  });

  it('accepts the alias ASSISTANT_C and echoes SEARCH_C_ASSISTANT', async () => {
    const r = await runTask(svc, { taskType: 'ASSISTANT_C', payload: { prompt: 'solar panels' } });
    expect(r.task.taskType).toBe('SEARCH_C_ASSISTANT');
    expect(r.task.status).toBe('COMPLETED');
  });
});

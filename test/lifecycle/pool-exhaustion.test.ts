import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

/** Pools are leased per attempt; an attempt that cannot get one in time fails with the capacity codes. */
describe('pool exhaustion', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const dir = tempDir();
    svc = await startService({
      AEQ_CONFIG: writeConfig(dir, {
        scheduler: { poolWaitMs: 200, retryBaseMs: 10, retryMaxMs: 20 },
        engines: { CHATBOT_A: { concurrency: 10 } },
      }),
      AEQ_ENGINE_MAX_ATTEMPTS: '1',
    });
  });
  afterAll(() => svc.stop());

  it('fails with NO_ACCOUNT_AVAILABLE when every account of the country stays busy', async () => {
    // KR has two sandbox accounts, each serving one conversation at a time.
    const slow = (i: number) => ({
      taskType: 'CHATBOT_A',
      payload: { prompt: `slow ${i} sandbox:delay=1500`, country: 'KR' },
    });
    const results = await Promise.all([0, 1, 2].map((i) => runTask(svc, slow(i))));
    const statuses = results.map((r) => r.task.status).sort();
    expect(statuses).toEqual(['COMPLETED', 'COMPLETED', 'FAILED']);
    const failed = results.find((r) => r.task.status === 'FAILED');
    expect(failed.error).toBe(
      'NO_ACCOUNT_AVAILABLE: No account for the requested country became free in time; retrying later often works.',
    );
  });

  it('fails with NO_IP_AVAILABLE when the country has no exit address', async () => {
    // Not a region-bound engine, so it is accepted, but nothing can carry it to FR.
    const r = await runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'bonjour', country: 'FR' } });
    expect(r.task.status).toBe('FAILED');
    expect(r.error).toBe(
      'NO_IP_AVAILABLE: No exit address for the requested country became free in time; retrying later often works.',
    );
  });
});

describe('task logs', () => {
  it('carry the task id on every line about a task, and never the account secret', async () => {
    const lines: string[] = [];
    const svc = await startService({}, { logLines: lines });
    try {
      const ok = await runTask(svc, { taskType: 'CHATBOT_A', payload: { prompt: 'log me', country: 'US' } });
      const flaky = await runTask(svc, {
        taskType: 'ANSWER_ENGINE_A',
        payload: { prompt: 'log flaky sandbox:flaky=1' },
      });
      expect(ok.task.status).toBe('COMPLETED');
      expect(flaky.task.status).toBe('COMPLETED');
      const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const id of [ok.task.id, flaky.task.id]) {
        const about = parsed.filter((p) => JSON.stringify(p).includes(id));
        expect(about.length).toBeGreaterThanOrEqual(2);
        for (const p of about) expect(p.taskId).toBe(id);
      }
      expect(parsed.some((p) => p.taskId === flaky.task.id && p.msg === 'attempt failed, retry scheduled')).toBe(true);
      // The sandbox account secrets start with sk-sandbox-.
      expect(lines.join('\n')).not.toContain('sk-sandbox-');
    } finally {
      await svc.stop();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, startService, steppedClock, submit, tempDir, type RunningService } from '../helpers/service.js';

const TERMINAL = new Set(['COMPLETED', 'FAILED']);
/** The longest retry wait of the config below: one step of the clock makes any retry due. */
const RETRY_MAX_MS = 100;

describe('the polling view through a task lifecycle', () => {
  const clock = steppedClock();
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService(
      { AEQ_CONFIG: fastConfig(tempDir(), { scheduler: { retryMaxMs: RETRY_MAX_MS } }), AEQ_ENGINE_TIMEOUT_MS: '5000' },
      { clock },
    );
  });
  afterAll(() => svc.stop());

  /** Polls the task over HTTP and checks a view that is not terminal. */
  const view = async (id: string, seen: Set<string>) => {
    const r = await svc.call('GET', `/v1/async/task/${id}`);
    expect(r.status).toBe(200);
    const v = r.body;
    seen.add(v.task.status);
    if (!TERMINAL.has(v.task.status)) {
      expect(v).not.toHaveProperty('response');
      expect(v).not.toHaveProperty('error');
      expect(v.credits).toEqual({ creditsToCharge: 0, creditsCharged: 0 });
    }
    return v;
  };

  /**
   * Steps the worker until the task is terminal, polling its view after each step: after the claim
   * (PROCESSING while the attempt runs), after the attempt (terminal, or QUEUED for a retry, made
   * due by moving the clock).
   */
  const pollChecking = async (id: string): Promise<{ final: any; seen: Set<string> }> => {
    const seen = new Set<string>();
    const worker = svc.app.worker!;
    let v = await view(id, seen);
    for (let step = 0; step < 10 && !TERMINAL.has(v.task.status); step++) {
      await worker.runOnce();
      v = await view(id, seen);
      await worker.idle();
      v = await view(id, seen);
      clock.advance(RETRY_MAX_MS);
    }
    expect(TERMINAL.has(v.task.status), JSON.stringify(v)).toBe(true);
    return { final: v, seen };
  };

  it(
    'QUEUED/PROCESSING show no response and no error and credits 0/0; ' +
      'COMPLETED shows response only, with the engine cost',
    async () => {
      const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'slowish sandbox:delay=1500' } });
      const { final, seen } = await pollChecking(id);
      expect(seen.has('PROCESSING')).toBe(true);
      expect(final.task.status).toBe('COMPLETED');
      expect(final).toHaveProperty('response');
      expect(final).not.toHaveProperty('error');
      expect(Object.keys(final).sort()).toEqual(['credits', 'response', 'success', 'task']);
      expect(final.credits).toEqual({ creditsToCharge: 2, creditsCharged: 2 });
    },
  );

  it('FAILED shows error (a string) and why (failure), no response, with 0 charged', async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'will fail sandbox:delay=300 sandbox:error' },
    });
    const { final } = await pollChecking(id);
    expect(final.task.status).toBe('FAILED');
    expect(final).not.toHaveProperty('response');
    expect(typeof final.error).toBe('string');
    expect(final.error).toMatch(/^ENGINE_FAILED: /);
    expect(Object.keys(final).sort()).toEqual(['credits', 'error', 'failure', 'success', 'task']);
    expect(final.failure).toMatchObject({ code: 'UPSTREAM_ERROR', origin: 'upstream' });
    expect(final.credits).toEqual({ creditsToCharge: 2, creditsCharged: 0 });
  });

  it('a retried task that finally completes shows no error from its failed attempts', async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'retry then fine sandbox:flaky=1' },
    });
    const { final } = await pollChecking(id);
    expect(final.task.status).toBe('COMPLETED');
    expect(final).not.toHaveProperty('error');
  });

  it('terminal views are stable: polling again gives the same body', async () => {
    const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'stable view' } });
    const { final } = await pollChecking(id);
    const again = await svc.call('GET', `/v1/async/task/${id}`);
    expect(again.body).toEqual(final);
  });

  it('the task metadata never changes except its status', async () => {
    const key = `meta-${Date.now()}`;
    const r = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'meta' },
      priority: 7,
      idempotencyKey: key,
    });
    const { final } = await pollChecking(r.body.task.id);
    expect({ ...final.task, status: 'QUEUED' }).toEqual(r.body.task);
  });
});

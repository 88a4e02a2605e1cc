import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, submit, TEST_KEY, type RunningService } from '../helpers/service.js';

/** A result with what a serialiser could get wrong: escapes, line separators, non-ASCII, nesting, numbers. */
const RESULT = {
  text: 'Quotes " and \\ backslashes, a tab\t, a line separator \u2028, 한국어 and 🏃',
  markdown: '## Picks\n\n1. **First** [1](https://a.example/x?y=1&z=2)',
  sources: [{ position: 1, url: 'https://a.example/x?y=1&z=2', label: 'A <b>' }],
  nested: { empty: {}, list: [1, 2.5, -0.001, 1e21, null, true, 'x'] },
};

describe('GET /v1/async/task/{id} of a COMPLETED task', () => {
  let svc: RunningService;
  let id: string;
  beforeAll(async () => {
    svc = await startIdleService();
    id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'poll me' },
      idempotencyKey: 'poll-completed',
    });
    const now = Date.now();
    const [claimed] = await svc.app.store.tasks.claim({
      taskType: 'ANSWER_ENGINE_A',
      limit: 1,
      concurrency: 1,
      workerId: 'test',
      now,
      leaseMs: 60_000,
    });
    const write = {
      status: 'COMPLETED' as const,
      result: RESULT,
      error: null,
      creditsToCharge: 2,
      creditsCharged: 2,
      webhook: null,
    };
    expect(await svc.app.store.tasks.finish({ id, leaseToken: claimed!.leaseToken, write, now })).toBe(true);
  });
  afterAll(() => svc.stop());

  it('answers the stored result as its response, byte for byte what serialising the whole answer gives', async () => {
    const res = await fetch(`${svc.url}/v1/async/task/${id}`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['success', 'task', 'credits', 'response']);
    expect(body.response).toEqual(RESULT);
    expect(body.credits).toEqual({ creditsToCharge: 2, creditsCharged: 2 });
    expect(body.task).toMatchObject({
      id,
      taskType: 'ANSWER_ENGINE_A',
      status: 'COMPLETED',
      idempotencyKey: 'poll-completed',
    });
    expect(text).toBe(JSON.stringify(body));
  });

  it('keeps the other answers as they were: a QUEUED task has no response, an unknown id is 404', async () => {
    const queued = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'still queued' } });
    const q = await svc.call('GET', `/v1/async/task/${queued}`);
    expect(q.status).toBe(200);
    expect(Object.keys(q.body)).toEqual(['success', 'task', 'credits']);
    const missing = await svc.call('GET', `/v1/async/task/${queued.slice(0, -4)}0000`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });
});

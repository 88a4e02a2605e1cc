import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, type RunningService } from '../helpers/service.js';

const item = (taskType: string, extra: Record<string, unknown> = {}) => ({
  taskType,
  payload: { prompt: `p ${taskType}` },
  ...extra,
});

describe('POST /v1/async/task/batch', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  it('accepts mixed engines and reports one indexed result per item', async () => {
    const items = [
      item('ANSWER_ENGINE_A'),
      item('SEARCH_A_AIO'),
      item('CHATBOT_A'),
      item('SEARCH_B'),
      item('FORUM'),
      item('SEARCH_C'),
    ];
    const r = await svc.call('POST', '/v1/async/task/batch', items);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.summary).toEqual({ total: 6, succeeded: 6, failed: 0 });
    expect(r.body.results.map((x: { index: number }) => x.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r.body.results.map((x: { task: { taskType: string } }) => x.task.taskType)).toEqual([
      'ANSWER_ENGINE_A',
      'SEARCH_A',
      'CHATBOT_A',
      'SEARCH_B_AI_BRIEF',
      'FORUM',
      'SEARCH_C_SEARCH',
    ]);
    for (const x of r.body.results) {
      expect(Object.keys(x).sort()).toEqual(['credits', 'index', 'success', 'task']);
      expect(x.success).toBe(true);
      expect(x.task.status).toBe('QUEUED');
      expect(x.task).not.toHaveProperty('idempotencyKey');
      expect(x.credits).toEqual({ creditsToCharge: 0, creditsCharged: 0 });
      const p = await svc.call('GET', `/v1/async/task/${x.task.id}`);
      expect(p.status).toBe(200);
    }
  });

  it('a key repeated in a batch: the first wins, later ones fail with RESOURCE_ALREADY_EXISTS naming it', async () => {
    const key = `batch-dup-${Date.now()}`;
    const r = await svc.call('POST', '/v1/async/task/batch', [
      item('ANSWER_ENGINE_A', { idempotencyKey: key }),
      item('SEARCH_A'),
      item('SEARCH_A', { idempotencyKey: key }),
      item('CHATBOT_A', { idempotencyKey: key }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ total: 4, succeeded: 2, failed: 2 });
    const [first, second, third, fourth] = r.body.results;
    expect(first.success).toBe(true);
    expect(first.task.idempotencyKey).toBe(key);
    expect(second.success).toBe(true);
    for (const dup of [third, fourth]) {
      expect(dup.success).toBe(false);
      expect(Object.keys(dup).sort()).toEqual(['error', 'index', 'success']);
      expect(dup.error.code).toBe('RESOURCE_ALREADY_EXISTS');
      expect(dup.error.details).toEqual({ id: first.task.id });
      expect(typeof dup.error.message).toBe('string');
      expect(Number.isNaN(Date.parse(dup.error.timestamp))).toBe(false);
    }
    expect([third.index, fourth.index]).toEqual([2, 3]);
  });

  it('a key already used by an earlier task fails that item only', async () => {
    const key = `batch-prev-${Date.now()}`;
    const single = await svc.call('POST', '/v1/async/task', item('ANSWER_ENGINE_A', { idempotencyKey: key }));
    const r = await svc.call('POST', '/v1/async/task/batch', [
      item('SEARCH_A'),
      item('ANSWER_ENGINE_A', { idempotencyKey: key }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.results[0].success).toBe(true);
    expect(r.body.results[1].error.code).toBe('RESOURCE_ALREADY_EXISTS');
    expect(r.body.results[1].error.details).toEqual({ id: single.body.task.id });
  });

  it('dedicated task types fail per item with USE_DEDICATED_ENDPOINT', async () => {
    const r = await svc.call('POST', '/v1/async/task/batch', [
      item('SOURCE_INFLUENCE'),
      item('ANSWER_ENGINE_A'),
      item('CITATION_ATTRIBUTION'),
      item('PROMPT_RESEARCH'),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ total: 4, succeeded: 1, failed: 3 });
    expect(
      r.body.results.map((x: { success: boolean; error?: { code: string } }) => (x.success ? 'ok' : x.error?.code)),
    ).toEqual(['USE_DEDICATED_ENDPOINT', 'ok', 'USE_DEDICATED_ENDPOINT', 'USE_DEDICATED_ENDPOINT']);
  });

  it('an invalid item fails alone (with dotted details) while the rest succeed, still 200', async () => {
    const r = await svc.call('POST', '/v1/async/task/batch', [
      item('ANSWER_ENGINE_A'),
      { taskType: 'SEARCH_A_SERP', payload: { query: 'q', page: 11 } },
      { taskType: 'NOPE', payload: { prompt: 'x' } },
      'not an object',
      { taskType: 'ANSWER_ENGINE_A', payload: {} },
      { taskType: 'CHATBOT_A', payload: { prompt: 'x', country: 'JP' } },
      item('SEARCH_A'),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.summary).toEqual({ total: 7, succeeded: 2, failed: 5 });
    const res = r.body.results;
    expect(res.map((x: { index: number }) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(res[0].success).toBe(true);
    expect(res[1].error.code).toBe('VALIDATION_ERROR');
    expect(res[1].error.details.map((d: { field: string }) => d.field)).toContain('payload.page');
    expect(res[2].error.code).toBe('VALIDATION_ERROR');
    expect(res[2].error.details.map((d: { field: string }) => d.field)).toContain('taskType');
    expect(res[3].error.code).toBe('VALIDATION_ERROR');
    expect(res[4].error.code).toBe('VALIDATION_ERROR');
    expect(res[4].error.details.map((d: { field: string }) => d.field)).toContain('payload.prompt');
    expect(res[5].error.code).toBe('REGION_UNAVAILABLE');
    expect(res[5].error.details).toEqual({ country: 'JP', serveable: false, hasIps: true });
    expect(res[6].success).toBe(true);
  });

  it('a batch whose every item fails is still 200', async () => {
    const r = await svc.call('POST', '/v1/async/task/batch', [{ taskType: 'NOPE', payload: {} }]);
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ total: 1, succeeded: 0, failed: 1 });
  });

  it('an empty array -> 400 VALIDATION_ERROR with details[0].field === ""', async () => {
    const r = await svc.call('POST', '/v1/async/task/batch', []);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.details[0].field).toBe('');
  });

  it('500 items are accepted, 501 -> 400 VALIDATION_ERROR', async () => {
    const ok = await svc.call(
      'POST',
      '/v1/async/task/batch',
      Array.from({ length: 500 }, (_, i) => ({ taskType: 'SEARCH_A', payload: { query: `q${i}` } })),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.summary).toEqual({ total: 500, succeeded: 500, failed: 0 });
    const tooMany = await svc.call(
      'POST',
      '/v1/async/task/batch',
      Array.from({ length: 501 }, (_, i) => ({ taskType: 'SEARCH_A', payload: { query: `q${i}` } })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('a body that is not an array -> 400 VALIDATION_ERROR', async () => {
    for (const body of [item('ANSWER_ENGINE_A'), { items: [item('ANSWER_ENGINE_A')] }, '"x"', '1', 'null']) {
      const r = await svc.call('POST', '/v1/async/task/batch', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('a body that is not JSON -> 400 VALIDATION_ERROR', async () => {
    const r = await svc.call('POST', '/v1/async/task/batch', '[{"taskType":');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('nothing of a refused batch is queued', async () => {
    const before = (await svc.call('GET', '/stats')).body.tasks.QUEUED as number;
    await svc.call(
      'POST',
      '/v1/async/task/batch',
      Array.from({ length: 501 }, () => item('SEARCH_A')),
    );
    const after = (await svc.call('GET', '/stats')).body.tasks.QUEUED as number;
    expect(after).toBe(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, type RunningService } from '../helpers/service.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Input alias -> canonical name echoed in responses (docs/contract.md#task-types). */
const ALIASES: Array<[alias: string, canonical: string]> = [
  ['SEARCH_A_AIMODE', 'AIMODE'],
  ['SEARCH_A_AIO', 'SEARCH_A'],
  ['SEARCH_B', 'SEARCH_B_AI_BRIEF'],
  ['SEARCH_C', 'SEARCH_C_SEARCH'],
  ['SEARCH_C_ASSISTANT_SEARCH', 'SEARCH_C_SEARCH'],
  ['ASSISTANT_C', 'SEARCH_C_ASSISTANT'],
];

describe('POST /v1/async/task', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  it('answers 202 with {success, task, credits 0/0} in state QUEUED', async () => {
    const before = Date.now();
    const r = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'what is pydantic' },
    });
    expect(r.status).toBe(202);
    expect(Object.keys(r.body).sort()).toEqual(['credits', 'success', 'task']);
    expect(r.body.success).toBe(true);
    expect(r.body.credits).toEqual({ creditsToCharge: 0, creditsCharged: 0 });
    const t = r.body.task;
    expect(Object.keys(t).sort()).toEqual(['createdAt', 'id', 'priority', 'status', 'taskType']);
    expect(t.id).toMatch(UUID_RE);
    expect(t.taskType).toBe('ANSWER_ENGINE_A');
    expect(t.status).toBe('QUEUED');
    expect(t.priority).toBe(1);
    expect(t.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Date.parse(t.createdAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('assigns time-ordered ids (UUID version 7 carrying the creation millisecond)', async () => {
    const first = await svc.call('POST', '/v1/async/task', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'a' } });
    await new Promise((r) => setTimeout(r, 3));
    const second = await svc.call('POST', '/v1/async/task', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'b' } });
    for (const r of [first, second]) {
      const { id, createdAt } = r.body.task as { id: string; createdAt: string };
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.parse(createdAt));
    }
    expect((first.body.task.id as string) < (second.body.task.id as string)).toBe(true);
  });

  it('omits idempotencyKey when none was given (not null), on submit and on polling', async () => {
    const r = await svc.call('POST', '/v1/async/task', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'no key' } });
    expect(r.body.task).not.toHaveProperty('idempotencyKey');
    const p = await svc.call('GET', `/v1/async/task/${r.body.task.id}`);
    expect(p.status).toBe(200);
    expect(p.body.task).not.toHaveProperty('idempotencyKey');
  });

  it('echoes idempotencyKey verbatim when given', async () => {
    const key = `Key with spaces/ünïcode ✓ ${Date.now()}`;
    const r = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'k' },
      idempotencyKey: key,
    });
    expect(r.status).toBe(202);
    expect(r.body.task.idempotencyKey).toBe(key);
    const p = await svc.call('GET', `/v1/async/task/${r.body.task.id}`);
    expect(p.body.task.idempotencyKey).toBe(key);
  });

  it('polling a queued task shows the same metadata, credits 0/0, and neither response nor error', async () => {
    const r = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'poll me' },
      priority: 4,
    });
    const p = await svc.call('GET', `/v1/async/task/${r.body.task.id}`);
    expect(p.status).toBe(200);
    expect(p.body.success).toBe(true);
    expect(p.body.task).toEqual(r.body.task);
    expect(p.body.credits).toEqual({ creditsToCharge: 0, creditsCharged: 0 });
    expect(p.body).not.toHaveProperty('response');
    expect(p.body).not.toHaveProperty('error');
  });

  for (const [alias, canonical] of ALIASES) {
    it(`accepts ${alias} and echoes ${canonical}`, async () => {
      const r = await svc.call('POST', '/v1/async/task', { taskType: alias, payload: { query: 'best running shoes' } });
      expect(r.status).toBe(202);
      expect(r.body.task.taskType).toBe(canonical);
      const p = await svc.call('GET', `/v1/async/task/${r.body.task.id}`);
      expect(p.body.task.taskType).toBe(canonical);
    });
  }

  for (const t of ['SOURCE_INFLUENCE', 'CITATION_ATTRIBUTION', 'PROMPT_RESEARCH']) {
    it(`${t} on the generic endpoint -> 400 USE_DEDICATED_ENDPOINT`, async () => {
      const r = await svc.call('POST', '/v1/async/task', { taskType: t, payload: { prompt: 'x' } });
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.error.code).toBe('USE_DEDICATED_ENDPOINT');
    });
  }

  it('ignores unknown fields in the envelope and in the payload', async () => {
    const r = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'extra fields', temperature: 0.2, nested: { a: [1, 2] } },
      somethingElse: true,
      webhook: { url: 'https://example.com/hook', secret: 'ignored' },
    });
    expect(r.status).toBe(202);
    expect(r.body.task).not.toHaveProperty('somethingElse');
  });

  const clamps: Array<[given: number, echoed: number]> = [
    [0, 1],
    [-7, 1],
    [1, 1],
    [5, 5],
    [10, 10],
    [11, 10],
    [99, 10],
  ];
  for (const [given, echoed] of clamps) {
    it(`clamps priority ${given} to ${echoed} and echoes it`, async () => {
      const r = await svc.call('POST', '/v1/async/task', {
        taskType: 'ANSWER_ENGINE_A',
        payload: { prompt: 'p' },
        priority: given,
      });
      expect(r.status).toBe(202);
      expect(r.body.task.priority).toBe(echoed);
      const p = await svc.call('GET', `/v1/async/task/${r.body.task.id}`);
      expect(p.body.task.priority).toBe(echoed);
    });
  }

  it('accepts a query instead of a prompt', async () => {
    const r = await svc.call('POST', '/v1/async/task', { taskType: 'SEARCH_A', payload: { query: 'q only' } });
    expect(r.status).toBe(202);
  });

  it('accepts SERP pages 1 and 10', async () => {
    for (const page of [1, 10]) {
      const r = await svc.call('POST', '/v1/async/task', { taskType: 'SEARCH_A_SERP', payload: { query: 'q', page } });
      expect(r.status).toBe(202);
    }
  });
});

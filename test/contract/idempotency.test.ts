import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, type RunningService } from '../helpers/service.js';

let seq = 0;
const freshKey = () => `idem-${process.pid}-${Date.now()}-${++seq}`;

describe('idempotencyKey', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  it('a duplicate key -> 409 RESOURCE_ALREADY_EXISTS with details {id} of the first task', async () => {
    const key = freshKey();
    const first = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'one' },
      idempotencyKey: key,
    });
    expect(first.status).toBe(202);
    const again = await svc.call('POST', '/v1/async/task', {
      taskType: 'SEARCH_A',
      payload: { query: 'other' },
      idempotencyKey: key,
    });
    expect(again.status).toBe(409);
    expect(again.body.success).toBe(false);
    expect(again.body.error.code).toBe('RESOURCE_ALREADY_EXISTS');
    expect(again.body.error.details).toEqual({ id: first.body.task.id });
  });

  it('keys are compared verbatim (case and spaces matter)', async () => {
    const key = freshKey();
    for (const k of [key, key.toUpperCase(), ` ${key}`]) {
      const r = await svc.call('POST', '/v1/async/task', {
        taskType: 'ANSWER_ENGINE_A',
        payload: { prompt: 'x' },
        idempotencyKey: k,
      });
      expect(r.status, k).toBe(202);
    }
  });

  it('tasks without a key are never deduplicated', async () => {
    const body = { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'same body twice' } };
    const a = await svc.call('POST', '/v1/async/task', body);
    const b = await svc.call('POST', '/v1/async/task', body);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.task.id).not.toBe(b.body.task.id);
  });

  it('keys are unique across task kinds (dedicated endpoints share them)', async () => {
    const key = freshKey();
    const si = await svc.call('POST', '/v1/source-influence', {
      answer: 'a',
      citations: ['https://example.com/'],
      idempotencyKey: key,
    });
    expect(si.status).toBe(202);
    const generic = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'x' },
      idempotencyKey: key,
    });
    expect(generic.status).toBe(409);
    expect(generic.body.error.details).toEqual({ id: si.body.task.id });
    const pr = await svc.call('POST', '/v1/prompt-research', { seed: 'shoes', idempotencyKey: key });
    expect(pr.status).toBe(409);
    expect(pr.body.error.code).toBe('RESOURCE_ALREADY_EXISTS');
    expect(pr.body.error.details).toEqual({ id: si.body.task.id });
  });

  it('20 concurrent submits with one key: exactly one 202, the rest 409 naming the winner', async () => {
    const key = freshKey();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        svc.call('POST', '/v1/async/task', {
          taskType: 'ANSWER_ENGINE_A',
          payload: { prompt: `race ${i}` },
          idempotencyKey: key,
        }),
      ),
    );
    const accepted = results.filter((r) => r.status === 202);
    const refused = results.filter((r) => r.status === 409);
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(19);
    const winner = accepted[0]?.body.task.id as string;
    for (const r of refused) expect(r.body.error.details).toEqual({ id: winner });
  });

  it('20 concurrent batches carrying one key: exactly one item accepted overall', async () => {
    const key = freshKey();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        svc.call('POST', '/v1/async/task/batch', [
          { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `batch race ${i}` }, idempotencyKey: key },
        ]),
      ),
    );
    for (const r of results) expect(r.status).toBe(200);
    const items = results.map((r) => r.body.results[0]);
    const ok = items.filter((x) => x.success === true);
    expect(ok).toHaveLength(1);
    for (const x of items.filter((i) => i.success === false)) {
      expect(x.error.code).toBe('RESOURCE_ALREADY_EXISTS');
      expect(x.error.details).toEqual({ id: ok[0].task.id });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, type RunningService } from '../helpers/service.js';

const INTERNAL = 'internal-token-isolation-0123';
const task = (prompt: string, idempotencyKey?: string) => ({
  taskType: 'ANSWER_ENGINE_A',
  payload: { prompt },
  ...(idempotencyKey ? { idempotencyKey } : {}),
  webhook: { url: 'https://example.com/hook' },
});

/**
 * Isolation between accounts: each task, batch, delivery log and analysis task belongs to the account of the key
 * that made it; another account's id answers 404 (never 403); idempotency keys are per account; /stats is the
 * caller's own account and /internal/stats all of them.
 */
describe('accounts see only their own', () => {
  let svc: RunningService;
  const keys: Record<string, string> = {};
  const as = (who: string, method: string, p: string, body?: unknown) =>
    svc.call(method, p, body, who === 'default' ? {} : { authorization: `Bearer ${keys[who]}` });

  beforeAll(async () => {
    svc = await startIdleService({ AEQ_INTERNAL_TOKEN: INTERNAL });
    const internal = { authorization: `Bearer ${INTERNAL}` };
    for (const name of ['acme', 'globex']) {
      expect((await svc.call('POST', '/internal/accounts', { name }, internal)).status).toBe(201);
      keys[name] = (await svc.call('POST', '/internal/keys', { account: name }, internal)).body.key;
    }
  });
  afterAll(() => svc.stop());

  it("answers 404 for another account's task, batch, delivery log and analysis task", async () => {
    const t = await as('acme', 'POST', '/v1/async/task', task('acme task'));
    expect(t.status).toBe(202);
    const id = t.body.task.id as string;
    const b = await as('acme', 'POST', '/v1/async/task/batch', [task('acme batch item')]);
    const batchId = b.body.batch.id as string;
    const si = await as('acme', 'POST', '/v1/source-influence', {
      answer: 'Acme makes anvils [1].',
      citations: ['https://example.com/anvils'],
    });
    expect(si.status).toBe(202);

    for (const p of [
      `/v1/async/task/${id}`,
      `/v1/async/task/${id}/deliveries`,
      `/v1/async/batch/${batchId}`,
      `/v1/async/batch/${batchId}/deliveries`,
      `/v1/async/task/${si.body.task.id}`,
    ]) {
      expect((await as('acme', 'GET', p)).status, p).toBe(200);
      for (const other of ['globex', 'default']) {
        const r = await as(other, 'GET', p);
        expect(r.status, `${other} ${p}`).toBe(404);
        expect(r.body.error.code).toBe('RESOURCE_NOT_FOUND');
      }
    }
    for (const p of [`/v1/async/task/${id}/deliveries`, `/v1/async/batch/${batchId}/deliveries`])
      expect((await as('globex', 'POST', p)).status).toBe(404);
  });

  it('scopes idempotency keys per account, in single submits and in batches', async () => {
    const a = await as('acme', 'POST', '/v1/async/task', task('same key', 'shared-key'));
    const g = await as('globex', 'POST', '/v1/async/task', task('same key', 'shared-key'));
    expect([a.status, g.status]).toEqual([202, 202]);
    expect(a.body.task.id).not.toBe(g.body.task.id);
    const again = await as('acme', 'POST', '/v1/async/task', task('same key', 'shared-key'));
    expect(again.status).toBe(409);
    expect(again.body.error.details).toEqual({ id: a.body.task.id });

    const ab = await as('acme', 'POST', '/v1/async/task/batch', [task('b1', 'batch-dup'), task('b2', 'batch-dup')]);
    expect(ab.body.summary).toEqual({ total: 2, succeeded: 1, failed: 1 });
    expect(ab.body.results[1].error.code).toBe('RESOURCE_ALREADY_EXISTS');
    const gb = await as('globex', 'POST', '/v1/async/task/batch', [task('b1', 'batch-dup')]);
    expect(gb.body.summary).toEqual({ total: 1, succeeded: 1, failed: 0 });
    expect(gb.body.results[0].task.id).not.toBe(ab.body.results[0].task.id);
  });

  it("gives /stats of the caller's own account, and every account's under /internal/stats", async () => {
    const queued = async (who: string) => (await as(who, 'GET', '/stats')).body.tasks.QUEUED as number;
    const before = { acme: await queued('acme'), globex: await queued('globex'), default: await queued('default') };
    await as('globex', 'POST', '/v1/async/task', task('one more for globex'));
    expect(await queued('globex')).toBe(before.globex + 1);
    expect(await queued('acme')).toBe(before.acme);
    expect(await queued('default')).toBe(before.default);
    const all = await svc.call('GET', '/internal/stats', undefined, { authorization: `Bearer ${INTERNAL}` });
    expect(all.body.tasks.QUEUED).toBe(before.acme + before.globex + 1 + before.default);
    expect((await as('acme', 'GET', '/internal/stats')).status).toBe(401);
  });
});

import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeaders, startReceiver, type Receiver } from '../helpers/receiver.js';
import { until } from '../helpers/wait.js';
import {
  fastConfig,
  startIdleService,
  startService,
  steppedClock,
  tempDir,
  type RunningService,
} from '../helpers/service.js';

/**
 * The batch object: POST /v1/async/task/batch also answers `batch: {id, size}`; GET /v1/async/batch/{id} gives
 * counts by status, done/total, timestamps and the accepted items in order, a page at a time; `?webhook=` sends one
 * signed `batch.completed` delivery once every task is terminal, with a delivery log and redelivery like a task's.
 */
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const item = (i: number) => ({ taskType: 'ANSWER_ENGINE_A', payload: { prompt: `batch object ${i}` } });

describe('a batch that runs to completion, with a webhook', () => {
  let svc: RunningService;
  let hooks: Receiver;
  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_SECRET: secret });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  it('answers the batch id and size, keeps the per-item results, and reports progress until completed', async () => {
    const items = [item(0), item(1), { taskType: 'ANSWER_ENGINE_A', payload: {} }, item(3), item(4)];
    const webhook = `${hooks.url}/batch-done?token=receiver-own`;
    const r = await svc.call('POST', `/v1/async/task/batch?webhook=${encodeURIComponent(webhook)}`, items);
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ total: 5, succeeded: 4, failed: 1 });
    expect(r.body.results[2]).toMatchObject({ success: false, index: 2, error: { code: 'VALIDATION_ERROR' } });
    const { id, size } = r.body.batch;
    expect(size).toBe(5);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const taskIds: string[] = r.body.results.filter((x: { success: boolean }) => x.success).map((x: any) => x.task.id);

    const done = await until(
      'batch completed',
      async () => (await svc.call('GET', `/v1/async/batch/${id}`)).body,
      (b) => b.batch?.completedAt !== null,
    );
    expect(done.batch).toMatchObject({ id, size: 5, total: 4, rejected: 1, done: 4 });
    expect(done.batch.counts).toEqual({ QUEUED: 0, PROCESSING: 0, COMPLETED: 4, FAILED: 0 });
    expect(done.batch.webhook).toEqual({ targetHost: new URL(hooks.url).host });
    expect(Date.parse(done.batch.completedAt)).toBeGreaterThanOrEqual(Date.parse(done.batch.updatedAt));
    expect(Date.parse(done.batch.updatedAt)).toBeGreaterThanOrEqual(Date.parse(done.batch.createdAt));
    // Each item names its engine and region; what it asked only with include=request.
    expect(done.items).toEqual(
      [0, 1, 3, 4].map((index, k) => ({
        index,
        taskId: taskIds[k],
        status: 'COMPLETED',
        taskType: items[index]?.taskType,
        country: null,
      })),
    );
    expect(done.nextCursor).toBeNull();
    const asked = (await svc.call('GET', `/v1/async/batch/${id}?include=request`)).body;
    expect(asked.items.map((x: any) => x.request.payload)).toEqual([0, 1, 3, 4].map((i) => items[i]?.payload));

    // Pages of two, in item order, with a cursor.
    const p1 = (await svc.call('GET', `/v1/async/batch/${id}?limit=2`)).body;
    expect(p1.items.map((x: { index: number }) => x.index)).toEqual([0, 1]);
    expect(p1.nextCursor).toBe('1');
    const p2 = (await svc.call('GET', `/v1/async/batch/${id}?limit=2&cursor=${p1.nextCursor}`)).body;
    expect(p2.items.map((x: { index: number }) => x.index)).toEqual([3, 4]);
    expect(p2.nextCursor).toBeNull();

    // One batch.completed delivery, signed like a task's, webhook-id msg_<batch id>.
    await hooks.waitUntil((all) => all.some((x) => x.path.startsWith('/batch-done')), 10_000, 'batch.completed');
    await new Promise((res) => setTimeout(res, 1200)); // two more completer ticks: still one delivery
    const got = hooks.received.filter((x) => x.path.startsWith('/batch-done'));
    expect(got).toHaveLength(1);
    const [d] = got;
    if (!d) throw new Error('no delivery');
    expect(d.headers['webhook-id']).toBe(`msg_${id}`);
    expect(new Webhook(secret).verify(d.raw, signatureHeaders(d))).toEqual(d.body);
    expect(d.body.type).toBe('batch.completed');
    expect(d.body.batch).toMatchObject({ id, size: 5, total: 4, rejected: 1, done: 4 });
    expect(d.body.batch.completedAt).toBe(done.batch.completedAt);

    // Its delivery log, by host only, then a redelivery with a new webhook-id.
    const log = await until(
      'delivery settled',
      async () => (await svc.call('GET', `/v1/async/batch/${id}/deliveries`)).body,
      (b) => b.webhook?.status === 'delivered',
    );
    expect(log).toMatchObject({ success: true, batchId: id, webhook: { targetHost: new URL(hooks.url).host } });
    expect(JSON.stringify(log)).not.toContain('receiver-own');
    expect(log.webhook.attempts).toMatchObject([{ delivery: 0, attempt: 1, outcome: 'delivered', httpStatus: 200 }]);
    const again = await svc.call('POST', `/v1/async/batch/${id}/deliveries`);
    expect(again.status).toBe(202);
    await hooks.waitUntil(
      (all) => all.filter((x) => x.path.startsWith('/batch-done')).length === 2,
      10_000,
      'the redelivery',
    );
    const redelivered = hooks.received.filter((x) => x.path.startsWith('/batch-done'))[1];
    expect(redelivered?.headers['webhook-id']).toBe(`msg_${id}_r1`);
    expect(redelivered?.raw).toBe(d.raw);
  });

  it('a batch without a webhook completes too; asking to redeliver its webhook is 422 NO_WEBHOOK', async () => {
    const r = await svc.call('POST', '/v1/async/task/batch', [item(10), item(11)]);
    const id = r.body.batch.id as string;
    const b = await until(
      'batch completed',
      async () => (await svc.call('GET', `/v1/async/batch/${id}`)).body,
      (x) => x.batch?.completedAt !== null,
    );
    expect(b.batch).toMatchObject({ total: 2, done: 2, webhook: null });
    expect((await svc.call('GET', `/v1/async/batch/${id}/deliveries`)).body).toEqual({
      success: true,
      batchId: id,
      webhook: null,
    });
    const again = await svc.call('POST', `/v1/async/batch/${id}/deliveries`);
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('NO_WEBHOOK');
  });

  it('a batch whose every item was refused still exists, completed at once with no task', async () => {
    const r = await svc.call('POST', '/v1/async/task/batch', [{ taskType: 'NOPE', payload: {} }]);
    expect(r.body.summary).toEqual({ total: 1, succeeded: 0, failed: 1 });
    const b = await until(
      'empty batch completed',
      async () => (await svc.call('GET', `/v1/async/batch/${r.body.batch.id}`)).body,
      (x) => x.batch?.completedAt !== null,
    );
    expect(b.batch).toMatchObject({ size: 1, total: 0, rejected: 1, done: 0, updatedAt: null });
    expect(b.items).toEqual([]);
  });
});

describe('batch progress while its tasks wait, and the edges of the batch endpoints', () => {
  let svc: RunningService;
  const clock = steppedClock();
  beforeAll(async () => {
    svc = await startIdleService({}, { clock });
  });
  afterAll(() => svc.stop());

  it('counts queued items, refuses a redelivery before completion (409 BATCH_NOT_COMPLETED)', async () => {
    const r = await svc.call('POST', `/v1/async/task/batch?webhook=${encodeURIComponent('https://example.com/h')}`, [
      item(0),
      item(1),
      item(2),
    ]);
    const id = r.body.batch.id as string;
    await svc.app.batches?.runOnce();
    const b = (await svc.call('GET', `/v1/async/batch/${id}`)).body;
    expect(b.batch).toMatchObject({ size: 3, total: 3, done: 0, completedAt: null });
    expect(b.batch.counts).toEqual({ QUEUED: 3, PROCESSING: 0, COMPLETED: 0, FAILED: 0 });
    expect(b.items.map((x: { status: string }) => x.status)).toEqual(['QUEUED', 'QUEUED', 'QUEUED']);
    const early = await svc.call('POST', `/v1/async/batch/${id}/deliveries`);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('BATCH_NOT_COMPLETED');
  });

  it('404 for an unknown id, a task id and a malformed id; 400 for a bad webhook, limit or cursor', async () => {
    const task = await svc.call('POST', '/v1/async/task', item(0));
    const unknown = '0190a6b2-0000-7000-8000-000000000000';
    for (const id of [unknown, task.body.task.id, 'not-a-uuid']) {
      const r = await svc.call('GET', `/v1/async/batch/${id}`);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('RESOURCE_NOT_FOUND');
      expect((await svc.call('GET', `/v1/async/batch/${id}/deliveries`)).status).toBe(404);
    }
    const bad = await svc.call('POST', '/v1/async/task/batch?webhook=ftp%3A%2F%2Fexample.com', [item(0)]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const ok = await svc.call('POST', '/v1/async/task/batch', [item(0)]);
    for (const q of ['limit=0', 'limit=501', 'limit=x', 'cursor=-1', 'cursor=abc']) {
      const r = await svc.call('GET', `/v1/async/batch/${ok.body.batch.id}?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('follows the retention of its tasks: gone with them after 24 hours', async () => {
    const r = await svc.call('POST', '/v1/async/task/batch', [item(0)]);
    const id = r.body.batch.id as string;
    expect((await svc.call('GET', `/v1/async/batch/${id}`)).status).toBe(200);
    clock.advance(24 * 3600_000 + 1000);
    expect((await svc.call('GET', `/v1/async/batch/${id}`)).status).toBe(404);
    await svc.app.sweeper.runOnce();
    expect(await svc.app.store.batches.get({ id, accountId: 'default', notBefore: 0 })).toBeUndefined();
  });
});

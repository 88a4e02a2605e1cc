import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AeqClient, AeqError, verifyWebhook, type Envelope } from '@aeq/client';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import {
  TEST_KEY,
  fastConfig,
  startIdleService,
  startService,
  tempDir,
  type RunningService,
} from '../helpers/service.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/** The TypeScript client end to end against the real service in sandbox mode. */
describe('AeqClient against a running service', () => {
  let svc: RunningService;
  let hooks: Receiver;
  let client: AeqClient;
  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_SECRET: SECRET });
    client = new AeqClient({ baseUrl: svc.url, apiKey: TEST_KEY });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  it('submits, waits with progress and reads results; a FAILED task is a result, not an exception', async () => {
    const ok = await client.submit({ taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'client ok' } });
    const bad = await client.submit({ taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'client sandbox:error' } });
    expect(ok.task?.status).toBe('QUEUED');
    const seen: number[] = [];
    const ids = [ok.task?.id ?? '', bad.task?.id ?? ''];
    const done = await client.waitFor(ids, { pollInterval: 50, onProgress: (p) => seen.push(p.done) });
    expect(done.get(ids[0] ?? '')?.task?.status).toBe('COMPLETED');
    expect(done.get(ids[0] ?? '')?.response).toBeTruthy();
    const failed = done.get(ids[1] ?? '');
    expect(failed?.task?.status).toBe('FAILED');
    expect(failed?.error).toMatch(/^ENGINE_FAILED: /);
    expect(seen.at(-1)).toBe(2);
  });

  it('throws typed errors: AeqError with the code, status and details of the envelope', async () => {
    const wrongKey = new AeqClient({ baseUrl: svc.url, apiKey: 'nope' });
    await expect(wrongKey.get('x')).rejects.toMatchObject({ code: 'MISSING_API_KEY', status: 401 });
    const e = await client.submit({ taskType: 'ANSWER_ENGINE_A', payload: {} } as Envelope).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AeqError);
    expect(e).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    expect(Array.isArray((e as AeqError).details)).toBe(true);
    await expect(client.get('01a2b3c4-d5e6-7000-8000-000000000000')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      status: 404,
    });
    const aborted = new AbortController();
    const t = await client.submit({ taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'slow sandbox:delay=3000' } });
    setTimeout(() => aborted.abort(new Error('stop waiting')), 100);
    await expect(client.waitFor([t.task?.id ?? ''], { signal: aborted.signal, pollInterval: 20 })).rejects.toThrow(
      'stop waiting',
    );
  });

  it('creates, reads, pauses, resumes and deletes a monitor, and reads its runs and series', async () => {
    const made = await client.createMonitor({
      name: 'client monitor',
      prompts: ['is Nike good for running'],
      engines: ['ANSWER_ENGINE_A'],
      brand: { name: 'Nike' },
    });
    const id = made.monitor?.id ?? '';
    expect(made.monitor?.tasksPerRun).toBe(1);
    expect((await client.monitors()).monitors?.map((m) => m.id)).toContain(id);
    expect((await client.monitor(id)).monitor?.name).toBe('client monitor');
    const paused = await client.updateMonitor(id, { status: 'paused' });
    expect(paused.monitor?.schedule?.nextRunAt).toBeNull();
    expect((await client.updateMonitor(id, { status: 'active' })).monitor?.status).toBe('active');
    expect((await client.monitorRuns(id, { limit: 5, include: 'results' })).runs).toEqual([]);
    expect((await client.monitorMetrics(id, { from: '2026-01-01T00:00:00Z' })).series).toEqual([]);
    // Run now: the run at once; a second while it is open (its answer takes 3 s) is an AeqError with the stable code.
    await client.updateMonitor(id, { prompts: ['is Nike good for running sandbox:delay=3000'] });
    const started = await client.runMonitorNow(id);
    expect(started.run).toMatchObject({ tasks: 1 });
    expect((await client.monitorRuns(id)).runs?.map((r) => r.id)).toEqual([started.run?.id]);
    await expect(client.runMonitorNow(id)).rejects.toMatchObject({ code: 'MONITOR_RUN_IN_PROGRESS', status: 409 });
    await client.deleteMonitor(id);
    await expect(client.monitor(id)).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND', status: 404 });
  });

  it('says what a task asked', async () => {
    const t = await client.submit({ taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'what was asked' } });
    const asked = await client.taskRequest(t.task?.id ?? '');
    expect(asked.request?.payload).toEqual({ prompt: 'what was asked' });
  });

  it('verifies a signed delivery, and refuses a changed body, another secret and an old timestamp', async () => {
    const t = await client.submit({
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'signed' },
      webhook: { url: `${hooks.url}/signed` },
    });
    await hooks.waitUntil((all) => all.some((r) => r.path === '/signed'), 15_000, 'the delivery');
    const d = hooks.received.find((r) => r.path === '/signed');
    if (!d) throw new Error('no delivery');
    expect(verifyWebhook(d.headers, d.raw, SECRET)).toMatchObject({ task: { id: t.task?.id } });
    expect(() => verifyWebhook(d.headers, d.raw.replace('COMPLETED', 'FAILED'), SECRET)).toThrow();
    expect(() => verifyWebhook(d.headers, d.raw, `whsec_${randomBytes(24).toString('base64')}`)).toThrow();
    expect(() => verifyWebhook(d.headers, d.raw, SECRET, Date.now() + 10 * 60_000)).toThrow(/too old/);
    const log = await client.deliveries(t.task?.id ?? '');
    expect(log.webhook?.status).toBe('delivered');
    expect((await client.redeliver(t.task?.id ?? '')).webhook?.redeliveries).toBe(1);
    expect((await client.usage()).totals?.tasks).toBeGreaterThan(0);
  });

  it("reads the account's webhook secret; a configured one is rotated by the operator only", async () => {
    expect(await client.webhookSecret()).toMatchObject({ secret: SECRET, source: 'configured', previous: null });
    const e = await client.rotateWebhookSecret().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AeqError);
    expect(e).toMatchObject({ status: 409, code: 'WEBHOOK_SECRET_CONFIGURED' });
  });
});

describe('submitBatch splits any number of items within the contract bounds and keeps their order', () => {
  let svc: RunningService;
  let client: AeqClient;
  beforeAll(async () => {
    svc = await startIdleService();
    client = new AeqClient({ baseUrl: svc.url, apiKey: TEST_KEY });
  });
  afterAll(() => svc.stop());

  it("an account's own webhook secret and its rotation", async () => {
    const first = await client.webhookSecret();
    expect(first).toMatchObject({ source: 'account', previous: null });
    expect(first.secret).toMatch(/^whsec_/);
    const rotated = await client.rotateWebhookSecret();
    expect(rotated.secret).not.toBe(first.secret);
    expect(rotated.previous?.secret).toBe(first.secret);
  });

  it('1,203 items in batches of 500, 500 and 203, refused items in their places', async () => {
    const items = Array.from(
      { length: 1203 },
      (_, i): Envelope =>
        i % 100 === 7
          ? ({ taskType: 'ANSWER_ENGINE_A', payload: {} } as Envelope)
          : { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `item ${i}` } },
    );
    const { results, batches } = await client.submitBatch(items);
    expect(batches.map((b) => b.size)).toEqual([500, 500, 203]);
    expect(results.map((r) => r.index)).toEqual(items.map((_, i) => i));
    expect(results.filter((r) => !r.success).map((r) => r.index)).toEqual(
      items.flatMap((_, i) => (i % 100 === 7 ? [i] : [])),
    );
    const page = await client.batch(batches[2]?.id ?? '', { limit: 500 });
    expect(page.batch?.total).toBe(201);
    // Each accepted item is its own task, in order.
    const second = results[501];
    expect((await client.get(second?.task?.id ?? '')).task?.id).toBe(second?.task?.id);
    // The account's batches, newest first, a page at a time.
    const listed = await client.batches({ limit: 2 });
    expect(listed.batches?.map((b) => b.id)).toEqual([batches[2]?.id, batches[1]?.id]);
    const older = await client.batches({ limit: 2, cursor: listed.nextCursor ?? '' });
    expect(older.batches?.map((b) => b.id)).toEqual([batches[0]?.id]);
    expect(older.nextCursor).toBeNull();
  });

  it('cuts by bytes too: 1 MB items go 8 to a batch under the 8 MiB body limit', async () => {
    const filler = 'x'.repeat(1_000_000);
    const items = Array.from(
      { length: 20 },
      (_, i) => ({ taskType: 'SEARCH_A_SERP', payload: { query: `q${i}` }, filler }) as unknown as Envelope,
    );
    const { results, batches } = await client.submitBatch(items);
    expect(batches.map((b) => b.size)).toEqual([8, 8, 4]);
    expect(results.every((r) => r.success)).toBe(true);
    expect(results.map((r) => r.index)).toEqual(items.map((_, i) => i));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, startService, submit, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';
import { startReceiver, type Receiver, type Reply } from '../helpers/receiver.js';
import { settledDelivery } from '../helpers/store-inspect.js';

const BASE_MS = 100;

describe('webhook retries (AEQ_WEBHOOK_RETRY_BASE_MS shortened)', () => {
  let svc: RunningService;
  let hooks: Receiver;
  /** Per path: how many times to fail before succeeding, the failure status, and the success status. */
  const plan = new Map<string, { failures: number; failWith: Reply; okWith: number }>();

  beforeAll(async () => {
    hooks = await startReceiver((r) => {
      const p = plan.get(r.path) ?? { failures: 0, failWith: 500, okWith: 200 };
      return at(r.path).length <= p.failures ? p.failWith : p.okWith;
    });
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_RETRY_BASE_MS: String(BASE_MS), AEQ_WEBHOOK_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  const at = (path: string) => hooks.received.filter((x) => x.path === path);

  const submitWithHook = async (path: string) => {
    const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `hook ${path}` }, webhook: { url: `${hooks.url}${path}` } });
    await waitTerminal(svc, id);
    return id;
  };

  const settled = (id: string) => settledDelivery(svc, id);

  it('a receiver that fails 4 times then answers 2xx gets exactly 5 attempts, with doubling gaps', async () => {
    plan.set('/four-failures', { failures: 4, failWith: 500, okWith: 200 });
    const id = await submitWithHook('/four-failures');
    const row = await settled(id);
    expect(row.status).toBe('DELIVERED');
    expect(row.attempts).toBe(5);
    const seen = at('/four-failures');
    expect(seen).toHaveLength(5);
    expect(seen.map((r) => r.answered)).toEqual([500, 500, 500, 500, 200]);
    // Attempt n+1 never fires before base x 2^(n-1) after attempt n (2, 4, 8, 16 minutes by default).
    const gaps = seen.slice(1).map((r, i) => r.at - (seen[i]?.at ?? 0));
    gaps.forEach((g, i) => expect(g, `gap ${i + 1} of ${JSON.stringify(gaps)}`).toBeGreaterThanOrEqual(BASE_MS * 2 ** i - 5));
    // Every attempt carries the same payload.
    expect(new Set(seen.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it('an always-failing receiver gets exactly 5 attempts, then the delivery is abandoned (no 6th)', async () => {
    plan.set('/always-fails', { failures: Number.MAX_SAFE_INTEGER, failWith: 500, okWith: 200 });
    const id = await submitWithHook('/always-fails');
    const row = await settled(id);
    expect(row.status).toBe('ABANDONED');
    expect(at('/always-fails')).toHaveLength(5);
    // Well past when a 6th attempt would have fired: still five.
    await new Promise((r) => setTimeout(r, BASE_MS * 2 ** 5));
    await svc.app.webhooks?.runOnce();
    await svc.app.webhooks?.idle();
    expect(at('/always-fails')).toHaveLength(5);
    // Delivery never changes the task's status.
    const polled = await svc.call('GET', `/v1/async/task/${id}`);
    expect(polled.body.task.status).toBe('COMPLETED');
  });

  it('an attempt that gets no answer within AEQ_WEBHOOK_TIMEOUT_MS counts as failed and is retried', async () => {
    plan.set('/hang', { failures: 1, failWith: 'hang', okWith: 200 });
    const id = await submitWithHook('/hang');
    const row = await settled(id);
    expect(row.status).toBe('DELIVERED');
    expect(row.attempts).toBe(2);
    expect(at('/hang').map((r) => r.answered)).toEqual([null, 200]);
  });

  for (const status of [200, 201, 202, 204, 299]) {
    it(`HTTP ${status} acknowledges the delivery at once`, async () => {
      plan.set(`/ok-${status}`, { failures: 0, failWith: 500, okWith: status });
      const id = await submitWithHook(`/ok-${status}`);
      const row = await settled(id);
      expect(row.status).toBe('DELIVERED');
      expect(row.attempts).toBe(1);
      expect(at(`/ok-${status}`)).toHaveLength(1);
    });
  }

  for (const status of [301, 400, 404, 410, 429, 503]) {
    it(`HTTP ${status} is a failure and is retried`, async () => {
      const path = `/status-${status}`;
      plan.set(path, { failures: 1, failWith: status, okWith: 200 });
      const id = await submitWithHook(path);
      const row = await settled(id);
      expect(row.status).toBe('DELIVERED');
      expect(at(path).map((r) => r.answered)).toEqual([status, 200]);
    });
  }
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, startService, submit, tempDir, waitTerminal, type RunningService } from '../helpers/service.js';
import { startReceiver, type Receiver, type Received } from '../helpers/receiver.js';

const BASE_MS = 100;

describe('webhook retries (AEQ_WEBHOOK_RETRY_BASE_MS shortened)', () => {
  let svc: RunningService;
  let hooks: Receiver;
  /** Per path: how many times to fail before answering 200. */
  const failFirst = new Map<string, number>();
  /** Per path: the status of a success. */
  const okStatus = new Map<string, number>();

  beforeAll(async () => {
    hooks = await startReceiver((r) => {
      const path = r.path;
      if (path.startsWith('/hang')) return r.n === firstOf(path)?.n ? 'hang' : 200;
      const seen = hooks.received.filter((x) => x.path === path).length;
      return seen <= (failFirst.get(path) ?? 0) ? 500 : (okStatus.get(path) ?? 200);
    });
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_RETRY_BASE_MS: String(BASE_MS), AEQ_WEBHOOK_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  const firstOf = (path: string): Received | undefined => hooks.received.find((x) => x.path === path);
  const at = (path: string) => hooks.received.filter((x) => x.path === path);

  const submitWithHook = async (path: string) => {
    const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: `hook ${path}` }, webhook: { url: `${hooks.url}${path}` } });
    await waitTerminal(svc, id);
    return id;
  };

  /** Waits until the delivery of a task is no longer pending (delivered or abandoned). */
  const settled = async (id: string) => {
    const db = (svc.app.store as unknown as { db: { selectFrom(t: string): any } }).db;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const row = await db.selectFrom('webhook_deliveries').selectAll().where('task_id', '=', id).executeTakeFirst();
      if (row && (row.status === 'DELIVERED' || row.status === 'ABANDONED')) return row as { status: string; attempts: number };
      if (Date.now() > deadline) throw new Error(`delivery of ${id} still pending: ${JSON.stringify(row)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it('a receiver that fails 4 times then answers 2xx gets exactly 5 attempts, with doubling gaps', async () => {
    failFirst.set('/four-failures', 4);
    const id = await submitWithHook('/four-failures');
    const row = await settled(id);
    expect(row.status).toBe('DELIVERED');
    expect(row.attempts).toBe(5);
    const seen = at('/four-failures');
    expect(seen).toHaveLength(5);
    expect(seen.map((r) => r.answered)).toEqual([500, 500, 500, 500, 200]);
    // Attempt n+1 never fires before base x 2^(n-1) after attempt n (2, 4, 8, 16 minutes by default).
    const gaps = seen.slice(1).map((r, i) => r.at - (seen[i]?.at ?? 0));
    console.log("gaps", gaps);
    gaps.forEach((g, i) => expect(g, `gap ${i + 1} of ${JSON.stringify(gaps)}`).toBeGreaterThanOrEqual(BASE_MS * 2 ** i - 5));
    // Every attempt carries the same payload.
    expect(new Set(seen.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it('an always-failing receiver gets exactly 5 attempts, then the delivery is abandoned (no 6th)', async () => {
    failFirst.set('/always-fails', Number.MAX_SAFE_INTEGER);
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
    const id = await submitWithHook('/hang');
    const row = await settled(id);
    expect(row.status).toBe('DELIVERED');
    expect(row.attempts).toBe(2);
    expect(at('/hang').map((r) => r.answered)).toEqual([null, 200]);
  });

  for (const status of [200, 201, 202, 204, 299]) {
    it(`HTTP ${status} acknowledges the delivery at once`, async () => {
      okStatus.set(`/ok-${status}`, status);
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
      failFirst.set(path, 1);
      hooks.setPolicy((r) => {
        if (r.path === path) return at(path).length <= 1 ? status : 200;
        const seen = at(r.path).length;
        if (r.path.startsWith('/hang')) return r.n === firstOf(r.path)?.n ? 'hang' : 200;
        return seen <= (failFirst.get(r.path) ?? 0) ? 500 : (okStatus.get(r.path) ?? 200);
      });
      const id = await submitWithHook(path);
      const row = await settled(id);
      expect(row.status).toBe('DELIVERED');
      expect(at(path).map((r) => r.answered)).toEqual([status, 200]);
    });
  }
});

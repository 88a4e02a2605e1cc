import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliverDue,
  fastConfig,
  startService,
  steppedClock,
  submit,
  tempDir,
  waitTerminal,
  type RunningService,
} from '../helpers/service.js';
import { startReceiver, type Receiver, type Reply } from '../helpers/receiver.js';
import { deliveryAttempts, deliveryRow } from '../helpers/store-inspect.js';

/** The default retry base (2 minutes): the clock is stepped, so the real schedule costs no waiting. */
const BASE_MS = 120_000;

describe('webhook retries (the service clock stepped through the retry schedule)', () => {
  const clock = steppedClock();
  let svc: RunningService;
  let hooks: Receiver;
  /** Per path: how many times to fail before succeeding, the failure status, and the success status. */
  const plan = new Map<string, { failures: number; failWith: Reply; okWith: number }>();

  beforeAll(async () => {
    hooks = await startReceiver((r) => {
      const p = plan.get(r.path) ?? { failures: 0, failWith: 500, okWith: 200 };
      return at(r.path).length <= p.failures ? p.failWith : p.okWith;
    });
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_TIMEOUT_MS: '300' }, { clock });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  const at = (path: string) => hooks.received.filter((x) => x.path === path);

  /** Submits a task with a webhook, waits for it over HTTP, and makes the first delivery attempt. */
  const submitWithHook = async (path: string) => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: `hook ${path}` },
      webhook: { url: `${hooks.url}${path}` },
    });
    await waitTerminal(svc, id);
    await deliverDue(svc);
    expect(at(path)).toHaveLength(1);
    return id;
  };

  /**
   * After failed attempt `n`: the next one is due exactly base x 2^(n-1) later. A step a millisecond
   * before that makes no attempt; a step at that time makes it.
   */
  const stepToNextAttempt = async (id: string, path: string, n: number) => {
    const row = await deliveryRow(svc, id);
    expect(row?.status).toBe('PENDING');
    expect(row?.attempts).toBe(n);
    const delay = BASE_MS * 2 ** (n - 1);
    expect(Number(row?.next_attempt_at) - clock.now(), `delay after attempt ${n}`).toBe(delay);
    clock.advance(delay - 1);
    expect(await deliverDue(svc)).toBe(0);
    expect(at(path)).toHaveLength(n);
    clock.advance(1);
    await deliverDue(svc);
    expect(at(path)).toHaveLength(n + 1);
  };

  it('a receiver failing 4 times then answering 2xx gets exactly 5 attempts, 0, 2, 4, 8, 16 min apart', async () => {
    plan.set('/four-failures', { failures: 4, failWith: 500, okWith: 200 });
    const id = await submitWithHook('/four-failures');
    for (let n = 1; n <= 4; n++) await stepToNextAttempt(id, '/four-failures', n);
    const row = await deliveryRow(svc, id);
    expect(row?.status).toBe('DELIVERED');
    expect(row?.attempts).toBe(5);
    const seen = at('/four-failures');
    expect(seen.map((r) => r.answered)).toEqual([500, 500, 500, 500, 200]);
    // Each attempt was started on the service clock exactly base x 2^(n-1) after attempt n.
    const started = (await deliveryAttempts(svc, id)).map((a) => Number(a.started_at));
    expect(started.slice(1).map((t, i) => t - (started[i] ?? 0))).toEqual([1, 2, 4, 8].map((k) => k * BASE_MS));
    // Every attempt carries the same payload.
    expect(new Set(seen.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it('an always-failing receiver gets exactly 5 attempts, then the delivery is abandoned (no 6th)', async () => {
    plan.set('/always-fails', { failures: Number.MAX_SAFE_INTEGER, failWith: 500, okWith: 200 });
    const id = await submitWithHook('/always-fails');
    for (let n = 1; n <= 4; n++) await stepToNextAttempt(id, '/always-fails', n);
    const row = await deliveryRow(svc, id);
    expect(row?.status).toBe('ABANDONED');
    expect((await deliveryAttempts(svc, id)).map((a) => a.outcome)).toEqual([
      'retry',
      'retry',
      'retry',
      'retry',
      'abandoned',
    ]);
    // Well past when a 6th attempt would have been due: still five.
    clock.advance(BASE_MS * 2 ** 5);
    expect(await deliverDue(svc)).toBe(0);
    expect(at('/always-fails')).toHaveLength(5);
    // Delivery never changes the task's status.
    const polled = await svc.call('GET', `/v1/async/task/${id}`);
    expect(polled.body.task.status).toBe('COMPLETED');
  });

  it('an attempt that gets no answer within AEQ_WEBHOOK_TIMEOUT_MS counts as failed and is retried', async () => {
    plan.set('/hang', { failures: 1, failWith: 'hang', okWith: 200 });
    const id = await submitWithHook('/hang');
    // The first step waited for the attempt's (real) 300 ms timeout: it failed and the retry is scheduled.
    await stepToNextAttempt(id, '/hang', 1);
    const row = await deliveryRow(svc, id);
    expect(row?.status).toBe('DELIVERED');
    expect(row?.attempts).toBe(2);
    expect(at('/hang').map((r) => r.answered)).toEqual([null, 200]);
  });

  for (const status of [200, 201, 202, 204, 299]) {
    it(`HTTP ${status} acknowledges the delivery at once`, async () => {
      plan.set(`/ok-${status}`, { failures: 0, failWith: 500, okWith: status });
      const id = await submitWithHook(`/ok-${status}`);
      const row = await deliveryRow(svc, id);
      expect(row?.status).toBe('DELIVERED');
      expect(row?.attempts).toBe(1);
      clock.advance(BASE_MS * 2 ** 5);
      expect(await deliverDue(svc)).toBe(0);
      expect(at(`/ok-${status}`)).toHaveLength(1);
    });
  }

  for (const status of [301, 400, 404, 410, 429, 503]) {
    it(`HTTP ${status} is a failure and is retried`, async () => {
      const path = `/status-${status}`;
      plan.set(path, { failures: 1, failWith: status, okWith: 200 });
      const id = await submitWithHook(path);
      await stepToNextAttempt(id, path, 1);
      expect((await deliveryRow(svc, id))?.status).toBe('DELIVERED');
      expect(at(path).map((r) => r.answered)).toEqual([status, 200]);
    });
  }
});

import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../../src/config/settings.js';
import { signatureHeaders, startReceiver, type Receiver } from '../helpers/receiver.js';
import {
  deliverDue,
  fastConfig,
  startIdleService,
  startService,
  steppedClock,
  submit,
  tempDir,
  waitTerminal,
  type RunningService,
} from '../helpers/service.js';

/**
 * Signed webhooks (Standard Webhooks): each delivery carries webhook-id (the same on a retry), webhook-timestamp and
 * webhook-signature with one `v1,` signature per configured secret, verified here with the `standardwebhooks`
 * package over the exact bytes received; without a secret the delivery is unsigned.
 */
const BASE_MS = 120_000;
const secret = () => `whsec_${randomBytes(24).toString('base64')}`;

describe('signed deliveries during a secret rotation (two secrets)', () => {
  const clock = steppedClock();
  const [oldSecret, newSecret] = [secret(), secret()];
  let svc: RunningService;
  let hooks: Receiver;

  beforeAll(async () => {
    hooks = await startReceiver((r) => (hooks.received.filter((x) => x.path === r.path).length === 1 ? 500 : 200));
    svc = await startService(
      {
        AEQ_CONFIG: fastConfig(tempDir()),
        AEQ_WEBHOOK_ALLOW_PRIVATE: '1',
        AEQ_WEBHOOK_SECRET: `${oldSecret}, ${newSecret}`,
      },
      { clock },
    );
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  it('signs each attempt with each secret; one id across the retry, the timestamp of the attempt', async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'signed hook' },
      webhook: { url: `${hooks.url}/signed?token=receiver-own-token` },
    });
    await waitTerminal(svc, id);
    await deliverDue(svc);
    clock.advance(BASE_MS);
    await deliverDue(svc);
    const [first, second] = hooks.received.filter((r) => r.path.startsWith('/signed'));
    expect(first?.answered).toBe(500);
    expect(second?.answered).toBe(200);
    for (const r of [first, second]) {
      if (!r) throw new Error('missing delivery');
      expect(r.headers['webhook-id']).toBe(`msg_${id}`);
      const headers = signatureHeaders(r);
      expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
      // Either secret verifies the delivery, as a receiver mid-rotation holds one of them.
      for (const s of [oldSecret, newSecret]) expect(new Webhook(s).verify(r.raw, headers)).toEqual(r.body);
      expect(() => new Webhook(secret()).verify(r.raw, headers)).toThrow();
      expect(() => new Webhook(oldSecret).verify(r.raw.replace('COMPLETED', 'FAILED'), headers)).toThrow();
    }
    expect(Number(second?.headers['webhook-timestamp']) - Number(first?.headers['webhook-timestamp'])).toBe(
      BASE_MS / 1000,
    );

    // The delivery log: each attempt with its time, latency, status and the next attempt it scheduled; the target
    // by host only (the receiver's token in the query never comes back).
    const log = await svc.call('GET', `/v1/async/task/${id}/deliveries`);
    expect(log.status).toBe(200);
    expect(JSON.stringify(log.body)).not.toContain('receiver-own-token');
    const firstAt = Date.parse(log.body.webhook.attempts[0].at);
    expect(log.body).toMatchObject({
      success: true,
      taskId: id,
      webhook: {
        targetHost: new URL(hooks.url).host,
        status: 'delivered',
        nextAttemptAt: null,
        attempts: [
          { attempt: 1, outcome: 'retry', httpStatus: 500, errorCode: null },
          { attempt: 2, outcome: 'delivered', httpStatus: 200, errorCode: null, nextAttemptAt: null },
        ],
      },
    });
    expect(Date.parse(log.body.webhook.attempts[0].nextAttemptAt)).toBe(firstAt + BASE_MS);
    expect(Date.parse(log.body.webhook.attempts[1].at)).toBe(firstAt + BASE_MS);
    for (const a of log.body.webhook.attempts) expect(a.latencyMs).toBeGreaterThanOrEqual(0);

    // Redelivery: the same bytes again at once, with a new webhook-id and five attempts of its own.
    const again = await svc.call('POST', `/v1/async/task/${id}/deliveries`);
    expect(again.status).toBe(202);
    expect(again.body.webhook).toMatchObject({ status: 'pending', redeliveries: 1 });
    const busy = await svc.call('POST', `/v1/async/task/${id}/deliveries`);
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('DELIVERY_IN_PROGRESS');
    await deliverDue(svc);
    const third = hooks.received.filter((r) => r.path.startsWith('/signed'))[2];
    expect(third?.headers['webhook-id']).toBe(`msg_${id}_r1`);
    expect(third?.raw).toBe(second?.raw);
    expect(new Webhook(newSecret).verify(third?.raw ?? '', signatureHeaders(third))).toEqual(third?.body);
    const after = (await svc.call('GET', `/v1/async/task/${id}/deliveries`)).body.webhook;
    expect(after.attempts.map((a: any) => [a.delivery, a.attempt, a.outcome])).toEqual([
      [0, 1, 'retry'],
      [0, 2, 'delivered'],
      [1, 1, 'delivered'],
    ]);
    expect(after).toMatchObject({ status: 'delivered', redeliveries: 1 });
  });

  it('the log of a task without a webhook is null; an unknown task is 404', async () => {
    const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'no hook' } });
    await waitTerminal(svc, id);
    expect((await svc.call('GET', `/v1/async/task/${id}/deliveries`)).body).toMatchObject({ webhook: null });
    const missing = await svc.call('GET', '/v1/async/task/00000000-0000-4000-8000-000000000000/deliveries');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('RESOURCE_NOT_FOUND');
    const none = await svc.call('POST', `/v1/async/task/${id}/deliveries`);
    expect(none.status).toBe(422);
    expect(none.body.error.code).toBe('NO_WEBHOOK');
  });
});

describe('without AEQ_WEBHOOK_SECRET', () => {
  let svc: RunningService;
  let hooks: Receiver;
  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_ALLOW_PRIVATE: '1' });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  it("signs with the default account's own secret, with the id and timestamp", async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'unsigned hook' },
      webhook: { url: `${hooks.url}/plain` },
    });
    await waitTerminal(svc, id);
    await deliverDue(svc);
    const [r] = hooks.received;
    expect(r?.headers['webhook-id']).toBe(`msg_${id}`);
    expect(r?.headers['webhook-timestamp']).toMatch(/^\d+$/);
    // Every delivery is signed: the account's secret is made on first use (test/security/webhook-secrets.test.ts).
    const { secret } = (await svc.call('GET', '/v1/webhooks/secret')).body;
    expect(new Webhook(secret).verify(r?.raw ?? '', signatureHeaders(r))).toEqual(r?.body);
  });
});

describe('redelivery of a task that has not finished', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService({ AEQ_WEBHOOK_ALLOW_PRIVATE: '1' });
  });
  afterAll(() => svc.stop());

  it('answers 409 TASK_NOT_TERMINAL (its webhook goes out when it finishes)', async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'still queued' },
      webhook: { url: 'http://127.0.0.1:9/hook' },
    });
    const r = await svc.call('POST', `/v1/async/task/${id}/deliveries`);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('TASK_NOT_TERMINAL');
    expect((await svc.call('GET', `/v1/async/task/${id}/deliveries`)).body).toMatchObject({ webhook: null });
  });
});

describe('AEQ_WEBHOOK_SECRET at start-up', () => {
  it('refuses a malformed secret, naming its position, never its value', () => {
    const good = secret();
    for (const bad of ['not-a-secret', 'whsec_', 'whsec_c2hvcnQ=', `${good},whsec_!!`]) {
      let err: unknown;
      try {
        loadSettings({ AEQ_WEBHOOK_SECRET: bad });
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(SettingsError);
      const message = String((err as Error).message);
      expect(message).toMatch(/secret \d is not whsec_/);
      expect(message).not.toContain(good);
      expect(message).not.toContain('c2hvcnQ');
    }
    expect(loadSettings({ AEQ_WEBHOOK_SECRET: `${secret()},${secret()}` }).webhookSecrets).toHaveLength(2);
    expect(loadSettings({}).webhookSecrets).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_ERROR_SENTENCES } from '../../src/domain/engine-errors.js';
import {
  deliverDue,
  fastConfig,
  startService,
  submit,
  tempDir,
  waitTerminal,
  type RunningService,
} from '../helpers/service.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

describe('webhook delivery payload', () => {
  let svc: RunningService;
  let hooks: Receiver;
  beforeAll(async () => {
    hooks = await startReceiver();
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()), AEQ_WEBHOOK_RETRY_BASE_MS: '50' });
  });
  afterAll(async () => {
    await svc.stop();
    await hooks.close();
  });

  /** Waits for the task over HTTP, then steps the sender: its first attempt has reached the receiver. */
  const deliveryFor = async (id: string) => {
    await waitTerminal(svc, id);
    await deliverDue(svc);
    return hooks.received.filter((r) => r.body?.task?.id === id);
  };

  it('COMPLETED: {task (terminal status, key echoed), credits (engine cost), response (the result)}', async () => {
    const key = `wh-ok-${Date.now()}`;
    const sub = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'what is a webhook' },
      priority: 3,
      idempotencyKey: key,
      webhook: { url: `${hooks.url}/done?x=1` },
    });
    expect(sub.status).toBe(202);
    const id = sub.body.task.id as string;
    const [d, ...more] = await deliveryFor(id);
    expect(more).toHaveLength(0);
    expect(d?.method).toBe('POST');
    expect(d?.path).toBe('/done?x=1');
    expect(d?.headers['content-type']).toMatch(/^application\/json/);
    const body = d?.body;
    expect(Object.keys(body).sort()).toEqual(['credits', 'response', 'task']);
    expect(body.task).toEqual({ ...sub.body.task, status: 'COMPLETED' });
    expect(body.task.idempotencyKey).toBe(key);
    expect(body.credits).toEqual({ creditsToCharge: 2, creditsCharged: 2 });
    const polled = await waitTerminal(svc, id);
    expect(body.response).toEqual(polled.response);
    expect(typeof body.response.text).toBe('string');
    expect(Array.isArray(body.response.sources)).toBe(true);
    // Polling after the terminal state reports the same persisted charge as the webhook.
    expect(polled.credits).toEqual(body.credits);
  });

  it('FAILED: task status FAILED, creditsCharged 0, response {error: <CODE>: <sentence>}', async () => {
    const key = `wh-fail-${Date.now()}`;
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'nothing sandbox:empty' },
      idempotencyKey: key,
      webhook: { url: `${hooks.url}/failed` },
    });
    const [d] = await deliveryFor(id);
    const body = d?.body;
    expect(body.task.status).toBe('FAILED');
    expect(body.task.idempotencyKey).toBe(key);
    expect(body.credits.creditsCharged).toBe(0);
    expect(body.credits.creditsToCharge).toBeGreaterThan(0);
    expect(body.response).toEqual({ error: `ENGINE_NO_RESULT: ${ENGINE_ERROR_SENTENCES.ENGINE_NO_RESULT}` });
    const polled = await waitTerminal(svc, id);
    expect(polled.error).toBe(body.response.error);
  });

  it('a task without a key delivers task metadata without idempotencyKey', async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'no key here' },
      webhook: { url: `${hooks.url}/nokey` },
    });
    const [d] = await deliveryFor(id);
    expect(d?.body.task).not.toHaveProperty('idempotencyKey');
    expect(d?.body.task.id).toBe(id);
  });

  it('tasks without a webhook deliver nothing', async () => {
    const before = hooks.received.length;
    const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'poll only' } });
    await waitTerminal(svc, id);
    expect(await deliverDue(svc)).toBe(0);
    expect(hooks.received.length).toBe(before);
  });

  it('carries no secret: no provider key, account secret or authorization header', async () => {
    const id = await submit(svc, {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'secrets?' },
      webhook: { url: `${hooks.url}/secrets` },
    });
    const [d] = await deliveryFor(id);
    expect(JSON.stringify(d?.body)).not.toMatch(/pplx-sandbox-key|sk-sandbox|gemini-sandbox-key/);
    expect(d?.headers.authorization).toBeUndefined();
  });

  it('stopping the sender twice is harmless (the second call waits for the first)', async () => {
    const sender = svc.app.webhooks;
    expect(sender).not.toBeNull();
    await expect(Promise.all([sender!.stop(), sender!.stop()])).resolves.toBeDefined();
    await expect(sender!.stop()).resolves.toBeUndefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, type RunningService } from '../helpers/service.js';

const chatbot = (country?: string) => ({
  taskType: 'CHATBOT_A',
  payload: country === undefined ? { prompt: 'hello' } : { prompt: 'hello', country },
});

describe('region checks before queueing', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  it(
    'CHATBOT_A in JP (exit addresses, no accounts) -> 422 ' +
      'REGION_UNAVAILABLE {country JP, serveable false, hasIps true}',
    async () => {
      const r = await svc.call('POST', '/v1/async/task', chatbot('JP'));
      expect(r.status).toBe(422);
      expect(r.body.success).toBe(false);
      expect(r.body.error.code).toBe('REGION_UNAVAILABLE');
      expect(r.body.error.details).toEqual({ country: 'JP', serveable: false, hasIps: true });
    },
  );

  it('CHATBOT_A in FR (nothing there) -> 422 REGION_UNAVAILABLE {FR, serveable false, hasIps false}', async () => {
    const r = await svc.call('POST', '/v1/async/task', chatbot('FR'));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('REGION_UNAVAILABLE');
    expect(r.body.error.details).toEqual({ country: 'FR', serveable: false, hasIps: false });
  });

  it('CHATBOT_A in CN -> 422 REGION_UNSUPPORTED {taskType, country, cause, retryable false}', async () => {
    const r = await svc.call('POST', '/v1/async/task', chatbot('CN'));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('REGION_UNSUPPORTED');
    const d = r.body.error.details;
    expect(Object.keys(d).sort()).toEqual(['cause', 'country', 'retryable', 'taskType']);
    expect(d.taskType).toBe('CHATBOT_A');
    expect(d.country).toBe('CN');
    expect(typeof d.cause).toBe('string');
    expect(d.retryable).toBe(false);
  });

  it('ANSWER_ENGINE_A and ASSISTANT_A in CN -> REGION_UNSUPPORTED too', async () => {
    for (const taskType of ['ANSWER_ENGINE_A', 'ASSISTANT_A']) {
      const r = await svc.call('POST', '/v1/async/task', { taskType, payload: { prompt: 'x', country: 'cn' } });
      expect(r.status, taskType).toBe(422);
      expect(r.body.error.code).toBe('REGION_UNSUPPORTED');
      expect(r.body.error.details.taskType).toBe(taskType);
      expect(r.body.error.details.country).toBe('CN');
    }
  });

  it('engines without region-bound pools are not rejected for capacity', async () => {
    const r = await svc.call('POST', '/v1/async/task', {
      taskType: 'ANSWER_ENGINE_A',
      payload: { prompt: 'x', country: 'FR' },
    });
    expect(r.status).toBe(202);
  });

  it('CHATBOT_A defaults to US and is served there', async () => {
    expect((await svc.call('POST', '/v1/async/task', chatbot())).status).toBe(202);
    expect((await svc.call('POST', '/v1/async/task', chatbot('US'))).status).toBe(202);
  });

  it('country is case-insensitive in and upper-case out', async () => {
    expect((await svc.call('POST', '/v1/async/task', chatbot('kr'))).status).toBe(202);
    expect((await svc.call('POST', '/v1/async/task', chatbot('Kr'))).status).toBe(202);
    const jp = await svc.call('POST', '/v1/async/task', chatbot('jp'));
    expect(jp.status).toBe(422);
    expect(jp.body.error.details.country).toBe('JP');
    const cn = await svc.call('POST', '/v1/async/task', chatbot('cN'));
    expect(cn.body.error.details.country).toBe('CN');
  });

  it('a region refusal queues nothing', async () => {
    const before = (await svc.call('GET', '/stats')).body.tasks.QUEUED as number;
    await svc.call('POST', '/v1/async/task', chatbot('JP'));
    await svc.call('POST', '/v1/async/task', chatbot('CN'));
    expect((await svc.call('GET', '/stats')).body.tasks.QUEUED).toBe(before);
  });

  it('/capacity agrees with the region checks', async () => {
    const r = await svc.call('GET', '/capacity');
    const c = r.body.chatbot_a.countries;
    expect(c.US).toEqual({ serveable: true, accounts: 4, hasIps: true });
    expect(c.KR).toEqual({ serveable: true, accounts: 2, hasIps: true });
    expect(c.JP).toEqual({ serveable: false, accounts: 0, hasIps: true });
    expect(c.FR === undefined || c.FR.serveable === false).toBe(true);
  });
});

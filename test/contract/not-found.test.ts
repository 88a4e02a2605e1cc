import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movableClock, startIdleService, submit, type RunningService } from '../helpers/service.js';

const DAY = 86_400_000;

function expectNotFound(r: { status: number; body: any }, id: string): void {
  expect(r.status).toBe(404);
  expect(r.body.success).toBe(false);
  expect(r.body.error.code).toBe('RESOURCE_NOT_FOUND');
  expect(r.body.error.details).toEqual({ id });
  expect(Number.isNaN(Date.parse(r.body.error.timestamp))).toBe(false);
}

describe('GET /v1/async/task/{id} for tasks that do not exist', () => {
  const clock = movableClock();
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService({}, { clock });
  });
  afterAll(() => svc.stop());

  it('an unknown UUID -> 404 RESOURCE_NOT_FOUND with details {id}', async () => {
    const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
    expectNotFound(await svc.call('GET', `/v1/async/task/${id}`), id);
  });

  for (const id of [
    'not-a-uuid',
    '12345',
    'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
    '3f2504e0-4f89-41d3-9a0c-0305e82c330',
    "1' OR '1'='1",
    '%00',
  ]) {
    it(`a malformed id ${JSON.stringify(id)} -> 404 RESOURCE_NOT_FOUND with details {id}`, async () => {
      const r = await svc.call('GET', `/v1/async/task/${encodeURIComponent(id)}`);
      expectNotFound(r, decodeURIComponent(encodeURIComponent(id)));
    });
  }

  for (const [label, raw, id] of [
    ['an over-long id', 'a'.repeat(150), 'a'.repeat(150)],
    ['a very long id', 'b'.repeat(5000), 'b'.repeat(5000)],
    ['a badly percent-encoded id', '%E0%A4%A', '%E0%A4%A'],
  ]) {
    it(`${label} -> 404 RESOURCE_NOT_FOUND in the error envelope`, async () => {
      const r = await svc.call('GET', `/v1/async/task/${raw}`);
      expectNotFound(r, id as string);
    });
  }

  it('an over-long id without a key is still 401', async () => {
    const r = await svc.raw('GET', `/v1/async/task/${'a'.repeat(150)}`);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('MISSING_API_KEY');
  });

  it('an existing id is found whatever the case of its hex digits', async () => {
    const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'case' } });
    const r = await svc.call('GET', `/v1/async/task/${id.toUpperCase()}`);
    expect(r.status).toBe(200);
    expect(r.body.task.id).toBe(id);
  });

  it('an expired id (older than 24 hours) -> 404 like an unknown one, even before the sweeper runs', async () => {
    const id = await submit(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'will expire' } });
    expect((await svc.call('GET', `/v1/async/task/${id}`)).status).toBe(200);
    clock.advance(DAY - 60_000);
    expect((await svc.call('GET', `/v1/async/task/${id}`)).status).toBe(200);
    clock.advance(120_000);
    const expired = await svc.call('GET', `/v1/async/task/${id}`);
    expectNotFound(expired, id);
    const unknown = await svc.call('GET', '/v1/async/task/3f2504e0-4f89-41d3-9a0c-0305e82c3302');
    expect(Object.keys(expired.body.error).sort()).toEqual(Object.keys(unknown.body.error).sort());
    expect(expired.body.error.message.replace(id, '<id>')).toBe(
      unknown.body.error.message.replace('3f2504e0-4f89-41d3-9a0c-0305e82c3302', '<id>'),
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startIdleService, type RunningService } from '../helpers/service.js';

const ID = '00000000-0000-4000-8000-000000000000';

/** Every bearer endpoint of the contract, with a body that would be valid. */
const BEARER_ENDPOINTS: Array<[method: string, path: string, body?: unknown]> = [
  ['POST', '/v1/async/task', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'hi' } }],
  ['POST', '/v1/async/task/batch', [{ taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'hi' } }]],
  ['GET', `/v1/async/task/${ID}`],
  ['POST', '/v1/source-influence', { answer: 'a', citations: ['https://example.com/'] }],
  ['POST', '/v1/prompt-research', { seed: 'running shoes' }],
  ['GET', '/stats'],
  ['GET', '/capacity'],
];

/** Authorization headers that must all be refused (undefined = no header at all). */
const BAD_AUTH: Array<[label: string, header: string | undefined]> = [
  ['missing', undefined],
  ['empty header', ''],
  ['empty bearer', 'Bearer '],
  ['scheme only', 'Bearer'],
  ['wrong key', 'Bearer wrong-key'],
  ['key with a suffix', `Bearer ${TEST_KEY}x`],
  ['key prefix only', `Bearer ${TEST_KEY.slice(0, -1)}`],
  ['key without scheme', TEST_KEY],
  ['basic scheme', `Basic ${Buffer.from(`${TEST_KEY}:`).toString('base64')}`],
];

describe('authentication', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  for (const [method, path, body] of BEARER_ENDPOINTS) {
    for (const [label, header] of BAD_AUTH) {
      it(`${method} ${path} with ${label} key -> 401 MISSING_API_KEY`, async () => {
        const headers: Record<string, string> = {};
        if (header !== undefined) headers.authorization = header;
        if (body !== undefined) headers['content-type'] = 'application/json';
        const r = await svc.raw(method, path, body === undefined ? undefined : JSON.stringify(body), headers);
        expect(r.status).toBe(401);
        expect(r.body.success).toBe(false);
        expect(r.body.error.code).toBe('MISSING_API_KEY');
        expect(typeof r.body.error.message).toBe('string');
        expect(Number.isNaN(Date.parse(r.body.error.timestamp))).toBe(false);
      });
    }

    it(`${method} ${path} with the right key is not refused`, async () => {
      const r = await svc.call(method, path, body);
      expect(r.status).not.toBe(401);
      expect(r.status).toBeLessThan(500);
    });
  }

  it('checks the key before reading the body (bad JSON without a key is still 401)', async () => {
    const r = await svc.raw('POST', '/v1/async/task', '{not json', { 'content-type': 'application/json' });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('MISSING_API_KEY');
  });

  it('refuses unknown routes without a key as 401, not as a route listing', async () => {
    const r = await svc.raw('GET', '/v1/anything');
    expect(r.status).toBe(401);
  });

  for (const path of ['/health', '/ready']) {
    it(`${path} answers 200 without a key`, async () => {
      const r = await svc.raw('GET', path);
      expect(r.status).toBe(200);
    });
    it(`${path} answers 200 with a wrong key too`, async () => {
      const r = await svc.raw('GET', path, undefined, { authorization: 'Bearer nope' });
      expect(r.status).toBe(200);
    });
  }

  it('a key on the query string does not authenticate', async () => {
    const r = await svc.raw('GET', `/stats?api_key=${TEST_KEY}`);
    expect(r.status).toBe(401);
  });

  it('a path that merely starts like a public one is not public', async () => {
    for (const p of ['/health/', '/ready/x', '/healthz', '/health/../stats']) {
      const r = await svc.raw('GET', p);
      expect(r.status, p).toBe(401);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startIdleService, type RunningService } from '../helpers/service.js';

/** Bodies that must be refused with 400 VALIDATION_ERROR, and the dotted fields `details` must name. */
const CASES: Array<[label: string, body: unknown, fields: string[]]> = [
  ['unknown taskType', { taskType: 'NOT_AN_ENGINE', payload: { prompt: 'x' } }, ['taskType']],
  [
    'CHATBOT_B (not accepted until it has an adapter)',
    { taskType: 'CHATBOT_B', payload: { prompt: 'x' } },
    ['taskType'],
  ],
  ['taskType in lower case', { taskType: 'answer_engine_a', payload: { prompt: 'x' } }, ['taskType']],
  ['missing taskType', { payload: { prompt: 'x' } }, ['taskType']],
  ['taskType not a string', { taskType: 7, payload: { prompt: 'x' } }, ['taskType']],
  ['missing payload', { taskType: 'ANSWER_ENGINE_A' }, ['payload']],
  ['payload not an object', { taskType: 'ANSWER_ENGINE_A', payload: 'x' }, ['payload']],
  ['payload an array', { taskType: 'ANSWER_ENGINE_A', payload: ['x'] }, ['payload']],
  ['payload null', { taskType: 'ANSWER_ENGINE_A', payload: null }, ['payload']],
  ['neither prompt nor query', { taskType: 'ANSWER_ENGINE_A', payload: {} }, ['payload.prompt']],
  ['blank prompt', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: '   ' } }, ['payload.prompt']],
  ['empty prompt', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: '' } }, ['payload.prompt']],
  ['prompt not a string', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 42 } }, ['payload.prompt']],
  ['query not a string', { taskType: 'SEARCH_A', payload: { query: ['a'] } }, ['payload.query']],
  ['page 0', { taskType: 'SEARCH_A_SERP', payload: { query: 'q', page: 0 } }, ['payload.page']],
  ['page 11', { taskType: 'SEARCH_A_SERP', payload: { query: 'q', page: 11 } }, ['payload.page']],
  ['page not an integer', { taskType: 'SEARCH_B_SERP', payload: { query: 'q', page: 1.5 } }, ['payload.page']],
  ['page a string', { taskType: 'SEARCH_B_SERP', payload: { query: 'q', page: '2' } }, ['payload.page']],
  ['country not two letters', { taskType: 'CHATBOT_A', payload: { prompt: 'x', country: 'USA' } }, ['payload.country']],
  ['country not a string', { taskType: 'CHATBOT_A', payload: { prompt: 'x', country: 1 } }, ['payload.country']],
  ['include not an object', { taskType: 'CHATBOT_A', payload: { prompt: 'x', include: true } }, ['payload.include']],
  [
    'include flag not a boolean',
    { taskType: 'CHATBOT_A', payload: { prompt: 'x', include: { markdown: 'yes' } } },
    ['payload.include.markdown'],
  ],
  ['priority not a number', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' }, priority: 'high' }, ['priority']],
  [
    'idempotencyKey not a string',
    { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' }, idempotencyKey: 12 },
    ['idempotencyKey'],
  ],
  [
    'empty idempotencyKey',
    { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' }, idempotencyKey: '' },
    ['idempotencyKey'],
  ],
  [
    'webhook not an object',
    { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' }, webhook: 'https://example.com' },
    ['webhook'],
  ],
  ['webhook without url', { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' }, webhook: {} }, ['webhook.url']],
  [
    'webhook url not http(s)',
    { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' }, webhook: { url: 'ftp://example.com/x' } },
    ['webhook.url'],
  ],
  ['WEB_SCRAPE without url', { taskType: 'WEB_SCRAPE', payload: {} }, ['payload.url']],
  [
    'WEB_SCRAPE with a non-http url',
    { taskType: 'WEB_SCRAPE', payload: { url: 'file:///etc/passwd' } },
    ['payload.url'],
  ],
  [
    'an action the engine does not use',
    { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x', action: 'feed' } },
    ['payload.action'],
  ],
  [
    'several problems at once',
    { taskType: 'SEARCH_A_SERP', payload: { query: 5, page: 99 }, priority: 'x' },
    ['payload.query', 'payload.page', 'priority'],
  ],
];

describe('request validation', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  for (const [label, body, fields] of CASES) {
    it(`${label} -> 400 VALIDATION_ERROR on ${fields.join(', ')}`, async () => {
      const r = await svc.call('POST', '/v1/async/task', body);
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      expect(typeof r.body.error.message).toBe('string');
      expect(Number.isNaN(Date.parse(r.body.error.timestamp))).toBe(false);
      const details = r.body.error.details as Array<{ field: unknown; message: unknown }>;
      expect(Array.isArray(details)).toBe(true);
      for (const d of details) {
        expect(Object.keys(d).sort()).toEqual(['field', 'message']);
        expect(typeof d.field).toBe('string');
        expect(typeof d.message).toBe('string');
      }
      expect(details.map((d) => d.field)).toEqual(expect.arrayContaining(fields));
    });
  }

  it('the body must be a JSON object', async () => {
    for (const body of ['[]', '"text"', '42', 'null']) {
      const r = await svc.call('POST', '/v1/async/task', body);
      expect(r.status, body).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('a body that is not JSON -> 400 VALIDATION_ERROR', async () => {
    const r = await svc.call('POST', '/v1/async/task', '{"taskType": ');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('an empty body -> 400 VALIDATION_ERROR', async () => {
    const r = await svc.raw('POST', '/v1/async/task', '', {
      authorization: `Bearer ${TEST_KEY}`,
      'content-type': 'application/json',
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
  });
});

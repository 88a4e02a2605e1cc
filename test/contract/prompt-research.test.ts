import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, type RunningService } from '../helpers/service.js';

const ENGINES_12 = [
  'CHATBOT_A',
  'ASSISTANT_A',
  'ANSWER_ENGINE_A',
  'SEARCH_A',
  'AIMODE',
  'SEARCH_B_AI_BRIEF',
  'SEARCH_B_AI_TAB',
  'SEARCH_B',
  'SEARCH_A_AIO',
  'SEARCH_A_AIMODE',
  'CHATBOT_A',
  'AIMODE',
];

/** Request bodies that must be refused with 400 VALIDATION_ERROR naming `field`. */
const INVALID: Array<[label: string, body: Record<string, unknown>, field: string]> = [
  ['missing seed', {}, 'seed'],
  ['empty seed', { seed: '' }, 'seed'],
  ['blank seed', { seed: '   ' }, 'seed'],
  ['seed of 31 characters', { seed: 'a'.repeat(31) }, 'seed'],
  ['seed with punctuation', { seed: 'shoes!' }, 'seed'],
  ['seed with a double space', { seed: 'running  shoes' }, 'seed'],
  ['seed not a string', { seed: 42 }, 'seed'],
  ['limit 0', { seed: 'shoes', limit: 0 }, 'limit'],
  ['limit 51', { seed: 'shoes', limit: 51 }, 'limit'],
  ['monitorSize 0', { seed: 'shoes', monitorSize: 0 }, 'monitorSize'],
  ['monitorSize 51', { seed: 'shoes', monitorSize: 51 }, 'monitorSize'],
  ['21 exclude terms', { seed: 'shoes', exclude: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'exclude'],
  ['an exclude term of 31 characters', { seed: 'shoes', exclude: ['b'.repeat(31)] }, 'exclude[0]'],
  ['an empty exclude term', { seed: 'shoes', exclude: [''] }, 'exclude[0]'],
  ['empty engines', { seed: 'shoes', engines: [] }, 'engines'],
  ['13 engines', { seed: 'shoes', engines: [...ENGINES_12, 'ANSWER_ENGINE_A'] }, 'engines'],
  ['SOURCE_INFLUENCE in engines', { seed: 'shoes', engines: ['CHATBOT_A', 'SOURCE_INFLUENCE'] }, 'engines[1]'],
  ['an unknown engine', { seed: 'shoes', engines: ['NOPE'] }, 'engines[0]'],
  ['brandAliases without brand', { seed: 'shoes', brandAliases: ['acme'] }, 'brandAliases'],
  ['brandDescription without brand', { seed: 'shoes', brandDescription: 'sells shoes' }, 'brandDescription'],
  ['brand with fewer than two letters or digits', { seed: 'shoes', brand: 'a!' }, 'brand'],
  ['brand of 81 characters', { seed: 'shoes', brand: 'b'.repeat(81) }, 'brand'],
  [
    '11 brand aliases',
    { seed: 'shoes', brand: 'Acme', brandAliases: Array.from({ length: 11 }, (_, i) => `acme${i}`) },
    'brandAliases',
  ],
  [
    'brand description of 501 characters',
    { seed: 'shoes', brand: 'Acme', brandDescription: 'd'.repeat(501) },
    'brandDescription',
  ],
];

describe('POST /v1/prompt-research', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  it('queues a PROMPT_RESEARCH task: 202 {success, task, credits 0/0}', async () => {
    const r = await svc.call('POST', '/v1/prompt-research', { seed: 'running shoes' });
    expect(r.status).toBe(202);
    expect(r.body.success).toBe(true);
    expect(r.body.task.taskType).toBe('PROMPT_RESEARCH');
    expect(r.body.task.status).toBe('QUEUED');
    expect(r.body.task).not.toHaveProperty('idempotencyKey');
    expect(r.body.credits).toEqual({ creditsToCharge: 0, creditsCharged: 0 });
    const p = await svc.call('GET', `/v1/async/task/${r.body.task.id}`);
    expect(p.body.task.taskType).toBe('PROMPT_RESEARCH');
  });

  it('accepts every documented field at its limits', async () => {
    const r = await svc.call('POST', '/v1/prompt-research', {
      seed: '  a'.padEnd(33, 'b').slice(0, 32),
      country: 'kr',
      limit: 50,
      exclude: Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(30, 'x')),
      monitorSize: 50,
      engines: ['CHATBOT_A', 'ANSWER_ENGINE_A', 'AIMODE', 'SEARCH_A'],
      brand: 'A&B',
      brandAliases: Array.from({ length: 10 }, (_, i) => `ab${i}`),
      brandDescription: 'd'.repeat(500),
      idempotencyKey: `pr-${Date.now()}`,
      webhook: { url: 'https://example.com/hook' },
    });
    expect(r.status).toBe(202);
  });

  it('seeds are trimmed first and may be in any script', async () => {
    for (const seed of ['  running shoes  ', '운동화', 'Laufschuhe 2024', 'a'.repeat(30)]) {
      const r = await svc.call('POST', '/v1/prompt-research', { seed });
      expect(r.status, seed).toBe(202);
    }
  });

  for (const [label, body, field] of INVALID) {
    it(`${label} -> 400 VALIDATION_ERROR on ${field}`, async () => {
      const r = await svc.call('POST', '/v1/prompt-research', body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });
  }

  it('a country other than KR or US -> 422 REGION_UNSUPPORTED', async () => {
    for (const country of ['JP', 'gb', 'CN']) {
      const r = await svc.call('POST', '/v1/prompt-research', { seed: 'shoes', country });
      expect(r.status, country).toBe(422);
      expect(r.body.error.code).toBe('REGION_UNSUPPORTED');
      expect(r.body.error.details).toMatchObject({
        taskType: 'PROMPT_RESEARCH',
        country: country.toUpperCase(),
        retryable: false,
      });
      expect(typeof r.body.error.details.cause).toBe('string');
    }
  });

  it('KR and US are accepted in any case', async () => {
    for (const country of ['KR', 'us', 'Kr']) {
      expect((await svc.call('POST', '/v1/prompt-research', { seed: 'shoes', country })).status, country).toBe(202);
    }
  });

  it('monitorSize x engines over 200 -> 422 VALIDATION_ERROR on monitorSize; exactly 200 is fine', async () => {
    const over = await svc.call('POST', '/v1/prompt-research', {
      seed: 'shoes',
      monitorSize: 41,
      engines: ['CHATBOT_A', 'ASSISTANT_A', 'ANSWER_ENGINE_A', 'SEARCH_A', 'AIMODE'],
    });
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe('VALIDATION_ERROR');
    expect(over.body.error.details[0].field).toBe('monitorSize');
    const exact = await svc.call('POST', '/v1/prompt-research', {
      seed: 'shoes',
      monitorSize: 40,
      engines: ['CHATBOT_A', 'ASSISTANT_A', 'ANSWER_ENGINE_A', 'SEARCH_A', 'AIMODE'],
    });
    expect(exact.status).toBe(202);
  });

  it('the default engines count toward the monitor limit (3 x 50 = 150 is fine)', async () => {
    expect((await svc.call('POST', '/v1/prompt-research', { seed: 'shoes', monitorSize: 50 })).status).toBe(202);
  });

  it('engine aliases are accepted and count once with their canonical name', async () => {
    const r = await svc.call('POST', '/v1/prompt-research', {
      seed: 'shoes',
      monitorSize: 50,
      engines: [
        'SEARCH_A_AIO',
        'SEARCH_A',
        'SEARCH_A_AIMODE',
        'AIMODE',
        'SEARCH_B',
        'SEARCH_B_AI_BRIEF',
        'CHATBOT_A',
        'CHATBOT_A',
      ],
    });
    // SEARCH_A, AIMODE, SEARCH_B_AI_BRIEF, CHATBOT_A: 4 engines x 50 = 200.
    expect(r.status).toBe(202);
  });

  it('a duplicate idempotencyKey -> 409 RESOURCE_ALREADY_EXISTS', async () => {
    const key = `pr-dup-${Date.now()}`;
    const a = await svc.call('POST', '/v1/prompt-research', { seed: 'shoes', idempotencyKey: key });
    const b = await svc.call('POST', '/v1/prompt-research', { seed: 'boots', idempotencyKey: key });
    expect(a.status).toBe(202);
    expect(a.body.task.idempotencyKey).toBe(key);
    expect(b.status).toBe(409);
    expect(b.body.error.details).toEqual({ id: a.body.task.id });
  });

  it('unknown fields are ignored', async () => {
    expect(
      (await svc.call('POST', '/v1/prompt-research', { seed: 'shoes', language: 'en', extra: { a: 1 } })).status,
    ).toBe(202);
  });
});

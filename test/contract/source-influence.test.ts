import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, type RunningService } from '../helpers/service.js';

const cites = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ url: `https://example.com/page-${i}`, title: `Page ${i}` }));

const INVALID: Array<[label: string, body: Record<string, unknown>, field: string]> = [
  ['missing answer', { citations: cites(1) }, 'answer'],
  ['empty answer', { answer: '', citations: cites(1) }, 'answer'],
  ['answer of 200 001 characters', { answer: 'a'.repeat(200_001), citations: cites(1) }, 'answer'],
  ['answer not a string', { answer: 5, citations: cites(1) }, 'answer'],
  ['missing citations', { answer: 'a' }, 'citations'],
  ['no citations in legacy mode', { answer: 'a', citations: [] }, 'citations'],
  ['26 citations', { answer: 'a', citations: cites(26) }, 'citations'],
  [
    '26 citations with analysis.version 1',
    { answer: 'a', citations: cites(26), analysis: { version: 1 } },
    'citations',
  ],
  ['citations not an array', { answer: 'a', citations: 'https://example.com' }, 'citations'],
  ['a citation without url', { answer: 'a', citations: [{ title: 'x' }] }, 'citations[0]'],
  ['a citation url that is not http(s)', { answer: 'a', citations: ['javascript:alert(1)'] }, 'citations[0]'],
  ['a citation object with an ftp url', { answer: 'a', citations: [{ url: 'ftp://example.com/x' }] }, 'citations[0]'],
  ['a citation that is a number', { answer: 'a', citations: [7] }, 'citations[0]'],
  ['analysis.version 2', { answer: 'a', citations: cites(1), analysis: { version: 2 } }, 'analysis.version'],
  ['analysis not an object', { answer: 'a', citations: cites(1), analysis: 1 }, 'analysis'],
  [
    'an entity without name',
    { answer: 'a', citations: cites(1), analysis: { version: 1, entities: [{ id: 'e1' }] } },
    'analysis.entities[0].name',
  ],
  ['prompt not a string', { answer: 'a', citations: cites(1), prompt: ['x'] }, 'prompt'],
];

describe('POST /v1/source-influence', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  it('queues a SOURCE_INFLUENCE task: 202 {success, task, credits 0/0}', async () => {
    const r = await svc.call('POST', '/v1/source-influence', {
      answer: 'Pydantic is a library [1].',
      prompt: 'what is pydantic',
      citations: cites(1),
    });
    expect(r.status).toBe(202);
    expect(r.body.task.taskType).toBe('SOURCE_INFLUENCE');
    expect(r.body.task.status).toBe('QUEUED');
    expect(r.body.task).not.toHaveProperty('idempotencyKey');
    expect(r.body.credits).toEqual({ creditsToCharge: 0, creditsCharged: 0 });
  });

  it('accepts an answer of 1 and of 200 000 characters', async () => {
    expect((await svc.call('POST', '/v1/source-influence', { answer: 'a', citations: cites(1) })).status).toBe(202);
    expect(
      (await svc.call('POST', '/v1/source-influence', { answer: 'a'.repeat(200_000), citations: cites(1) })).status,
    ).toBe(202);
  });

  it('accepts 1 to 25 citations in legacy mode', async () => {
    expect((await svc.call('POST', '/v1/source-influence', { answer: 'a', citations: cites(1) })).status).toBe(202);
    expect((await svc.call('POST', '/v1/source-influence', { answer: 'a', citations: cites(25) })).status).toBe(202);
  });

  it('accepts 0 citations with analysis.version = 1, with entities', async () => {
    const r = await svc.call('POST', '/v1/source-influence', {
      answer: 'a',
      citations: [],
      analysis: { version: 1, entities: [{ id: 'acme', name: 'Acme', role: 'brand' }, { name: 'Other' }] },
    });
    expect(r.status).toBe(202);
  });

  it('accepts plain URL strings as citations, and mixed strings and objects', async () => {
    const r = await svc.call('POST', '/v1/source-influence', {
      answer: 'a',
      citations: ['https://example.com/a', { url: 'http://example.org/b', snippet: 's', position: 2, label: 'B' }],
    });
    expect(r.status).toBe(202);
  });

  for (const [label, body, field] of INVALID) {
    it(`${label} -> 400 VALIDATION_ERROR on ${field}`, async () => {
      const r = await svc.call('POST', '/v1/source-influence', body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      expect(r.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });
  }

  it('a duplicate idempotencyKey -> 409, echoed on success; webhook accepted', async () => {
    const key = `si-${Date.now()}`;
    const a = await svc.call('POST', '/v1/source-influence', {
      answer: 'a',
      citations: cites(1),
      idempotencyKey: key,
      webhook: { url: 'https://example.com/h' },
    });
    expect(a.status).toBe(202);
    expect(a.body.task.idempotencyKey).toBe(key);
    const b = await svc.call('POST', '/v1/source-influence', { answer: 'b', citations: cites(1), idempotencyKey: key });
    expect(b.status).toBe(409);
    expect(b.body.error.code).toBe('RESOURCE_ALREADY_EXISTS');
    expect(b.body.error.details).toEqual({ id: a.body.task.id });
  });

  it('unknown fields are ignored, including inside citations', async () => {
    const r = await svc.call('POST', '/v1/source-influence', {
      answer: 'a',
      citations: [{ url: 'https://example.com/', extra: { x: 1 } }],
      mode: 'fast',
    });
    expect(r.status).toBe(202);
  });
});

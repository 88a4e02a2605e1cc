import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startIdleService, type CallResult, type RunningService } from '../helpers/service.js';

/** A valid body per POST endpoint, the seed the nasty variants start from. */
const VALID: Record<string, unknown> = {
  '/v1/async/task': { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' } },
  '/v1/async/task/batch': [{ taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'x' } }],
  '/v1/source-influence': { answer: 'a', citations: ['https://example.com/'] },
  '/v1/prompt-research': { seed: 'shoes' },
};
const ENDPOINTS = Object.keys(VALID);

/** Per endpoint: a valid body split around the content of a free-text string member. */
const FREE_TEXT: Record<string, [string, string]> = {
  '/v1/async/task': ['{"taskType":"ANSWER_ENGINE_A","payload":{"prompt":"caf', '"}}'],
  '/v1/async/task/batch': ['[{"taskType":"ANSWER_ENGINE_A","payload":{"prompt":"caf', '"}}]'],
  '/v1/source-influence': ['{"answer":"caf', '","citations":["https://example.com/"]}'],
  '/v1/prompt-research': ['{"seed":"shoes","brand":"Acme","brandDescription":"caf', '"}'],
};

const DEEP = 100_000;
const deepArray = '['.repeat(DEEP) + ']'.repeat(DEEP);
const deepObject = `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;

interface Nasty {
  label: string;
  body: string | Uint8Array;
  contentType?: string;
}

/** Bodies every POST endpoint must refuse with a 4xx error envelope (a batch may instead fail every item). */
function mustReject(endpoint: string): Nasty[] {
  const valid = JSON.stringify(VALID[endpoint]);
  const utf8 = (s: string) => Buffer.from(s, 'utf8');
  // A body valid but for raw bytes inside a free-text member (which otherwise accepts anything).
  const [before, after] = FREE_TEXT[endpoint] ?? ['', ''];
  const withBytes = (bytes: number[]) => Buffer.concat([utf8(before), Buffer.from(bytes), utf8(after)]);
  return [
    { label: 'empty body', body: '' },
    { label: 'whitespace', body: '   \n' },
    { label: 'null', body: 'null' },
    { label: 'true', body: 'true' },
    { label: 'a number', body: '-1' },
    { label: 'a string', body: '"x"' },
    { label: 'truncated JSON', body: valid.slice(0, -1) },
    { label: 'trailing comma', body: '{"a":1,}' },
    { label: 'single quotes', body: "{'a':1}" },
    { label: 'NaN literal', body: 'NaN' },
    { label: 'a NUL byte', body: '\u0000' },
    { label: 'two JSON documents', body: `${valid}${valid}` },
    { label: 'arrays nested 100 000 deep', body: deepArray },
    { label: 'objects nested 100 000 deep', body: deepObject },
    { label: '__proto__ carrying the valid fields', body: `{"__proto__":${valid}}` },
    {
      label: 'constructor.prototype pollution',
      body: '{"constructor":{"prototype":{"taskType":"ANSWER_ENGINE_A","seed":"x","answer":"a"}}}',
    },
    { label: 'invalid UTF-8 in a key', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
    { label: 'invalid UTF-8 inside a string value', body: withBytes([0xff]) },
    { label: 'overlong UTF-8 encoding of "/"', body: withBytes([0xc0, 0xaf]) },
    { label: 'UTF-8 encoded surrogate', body: withBytes([0xed, 0xa0, 0x80]) },
    { label: 'truncated UTF-8 sequence', body: withBytes([0xe2, 0x82]) },
    {
      label: 'a form body',
      body: 'taskType=ANSWER_ENGINE_A&payload=x',
      contentType: 'application/x-www-form-urlencoded',
    },
    {
      label: 'a multipart body',
      body: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n',
      contentType: 'multipart/form-data; boundary=b',
    },
    { label: 'XML', body: '<task><taskType>ANSWER_ENGINE_A</taskType></task>', contentType: 'application/xml' },
    { label: 'plain text', body: 'hello', contentType: 'text/plain' },
    {
      label: 'a 2 MB string where a short one belongs',
      body: JSON.stringify(hugeField(endpoint, 'x'.repeat(2_000_000))),
    },
    { label: 'a 100 000-item array where a short one belongs', body: JSON.stringify(hugeArray(endpoint)) },
    { label: 'a 10 000-character idempotencyKey', body: JSON.stringify(withKey(endpoint, 'k'.repeat(10_000))) },
    {
      label: 'Infinity where an integer belongs',
      body: valid.replace(/^(\[?)\{/, '$1{"priority":1e999,"limit":1e999,"analysis":{"version":1e999},'),
    },
    {
      label: 'wrong types everywhere',
      body: JSON.stringify(
        endpoint.endsWith('batch')
          ? [[1], 2, 'x', null]
          : { taskType: [], payload: 1, answer: {}, citations: {}, seed: [], priority: {} },
      ),
    },
  ];
}

/** Bodies that may be accepted or refused, but never with a 5xx. */
function mustNotCrash(endpoint: string): Nasty[] {
  const valid = JSON.stringify(VALID[endpoint]);
  // Unknown members are ignored, but a deep one must not break whatever copies or stores the body.
  const D = deepObject;
  const addTop = (member: string) => valid.replace(/^(\[?)\{/, `$1{${member},`);
  return [
    { label: 'valid JSON sent as text/plain', body: valid, contentType: 'text/plain' },
    { label: 'valid JSON without a content type', body: valid, contentType: '' },
    { label: 'valid JSON with a charset', body: valid, contentType: 'application/json; charset=utf-8' },
    { label: 'a byte-order mark before valid JSON', body: `\ufeff${valid}` },
    { label: 'lone surrogate escapes', body: valid.replace(/"x"|"a"|"shoes"/, '"\\ud800x"') },
    { label: 'NUL escapes in strings', body: valid.replace(/"x"|"a"|"shoes"/, '"a\\u0000b"') },
    { label: 'duplicate keys', body: addTop('"taskType":"NOPE","seed":"??","answer":""') },
    {
      label: 'a huge number of unknown keys',
      body: addTop(Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`).join(',')),
    },
    { label: 'an unknown member nested 100 000 deep', body: addTop(`"deep":${D}`) },
    {
      label: 'a webhook with an unknown member nested 100 000 deep',
      body: addTop(`"webhook":{"deep":${D},"url":"https://example.com/h"}`),
    },
    {
      label: 'a payload with an unknown member nested 100 000 deep',
      body: `{"taskType":"ANSWER_ENGINE_A","payload":{"deep":${D},"prompt":"x"}}`,
    },
    {
      label: 'a batch item with an unknown member nested 100 000 deep',
      body: `[{"taskType":"ANSWER_ENGINE_A","payload":{"deep":${D},"prompt":"x"}}]`,
    },
    {
      label: 'a citation with an unknown member nested 100 000 deep',
      body: `{"answer":"a","citations":[{"deep":${D},"url":"https://example.com/"}]}`,
    },
    {
      label: 'an entity with an unknown member nested 100 000 deep',
      body: `{"answer":"a","citations":[],"analysis":{"version":1,"deep":${D},"entities":[{"deep":${D},"name":"n"}]}}`,
    },
    {
      label: '__proto__ inside the payload',
      body: '{"taskType":"ANSWER_ENGINE_A","payload":{"__proto__":{"prompt":"p"},"prompt":"x"}}',
    },
    {
      label: '__proto__ inside a citation',
      body: '{"answer":"a","citations":[{"__proto__":{"url":"https://example.com/"},"url":"https://example.com/"}]}',
    },
    { label: 'control characters in strings', body: valid.replace(/"x"|"a"|"shoes"/, '"\\u001b[31m\\u0007\\r\\n"') },
    { label: 'emoji and RTL text', body: valid.replace(/"x"|"a"|"shoes"/, '"🙂 \u202eabc"') },
  ];
}

function hugeField(endpoint: string, s: string): unknown {
  if (endpoint.endsWith('/task')) return { taskType: 'ANSWER_ENGINE_A', payload: { prompt: s } };
  if (endpoint.endsWith('batch')) return [{ taskType: 'ANSWER_ENGINE_A', payload: { prompt: s } }];
  if (endpoint.endsWith('influence')) return { answer: 'a', prompt: s, citations: ['https://example.com/'] };
  return { seed: s };
}

function hugeArray(endpoint: string): unknown {
  const many = Array.from({ length: 100_000 }, () => 'https://example.com/');
  if (endpoint.endsWith('/task')) return { taskType: many, payload: { prompt: 'x' } };
  if (endpoint.endsWith('batch')) return Array.from({ length: 100_000 }, () => ({}));
  if (endpoint.endsWith('influence')) return { answer: 'a', citations: many };
  return { seed: 'shoes', exclude: many };
}

function withKey(endpoint: string, key: string): unknown {
  const v = VALID[endpoint];
  return Array.isArray(v)
    ? v.map((x) => ({ ...(x as object), idempotencyKey: key }))
    : { ...(v as object), idempotencyKey: key };
}

function refused(endpoint: string, r: CallResult): boolean {
  if (r.status >= 400 && r.status < 500) return r.body?.success === false && typeof r.body?.error?.code === 'string';
  // A well-formed batch answers 200 even when every item failed.
  return endpoint.endsWith('batch') && r.status === 200 && r.body?.summary?.succeeded === 0;
}

describe('bad input never gives a 500 or stops the server', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  const send = (endpoint: string, n: Nasty) => {
    const headers: Record<string, string> = { authorization: `Bearer ${TEST_KEY}` };
    if (n.contentType !== '') headers['content-type'] = n.contentType ?? 'application/json';
    return svc.raw('POST', endpoint, n.body, headers);
  };

  for (const endpoint of ENDPOINTS) {
    it(`POST ${endpoint} refuses every nasty body with a 4xx`, async () => {
      for (const n of mustReject(endpoint)) {
        const r = await send(endpoint, n);
        expect(refused(endpoint, r), `${n.label}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`).toBe(true);
        expect((await svc.raw('GET', '/health')).status, `health after ${n.label}`).toBe(200);
      }
    });

    it(`POST ${endpoint} never answers 5xx to odd but possibly valid bodies`, async () => {
      for (const n of mustNotCrash(endpoint)) {
        const r = await send(endpoint, n);
        expect(r.status, `${n.label}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(500);
        expect(typeof r.body?.success, n.label).toBe('boolean');
        expect((await svc.raw('GET', '/health')).status, `health after ${n.label}`).toBe(200);
      }
    });
  }

  it('__proto__ in a body pollutes nothing', async () => {
    await svc.call(
      'POST',
      '/v1/async/task',
      '{"taskType":"ANSWER_ENGINE_A","payload":{"prompt":"x","__proto__":{"polluted":1}},"__proto__":{"polluted":1}}',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('still answers /health, /ready and a normal submit at the end', async () => {
    expect((await svc.raw('GET', '/health')).status).toBe(200);
    expect((await svc.raw('GET', '/ready')).status).toBe(200);
    expect((await svc.call('POST', '/v1/async/task', VALID['/v1/async/task'])).status).toBe(202);
  });
});

import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleService, type RunningService } from '../helpers/service.js';

/** Client endpoints of the contract; the POST ones carry a JSON request body. */
const ENDPOINTS: Array<[method: string, path: string]> = [
  ['post', '/v1/async/task'],
  ['post', '/v1/async/task/batch'],
  ['get', '/v1/async/task/{id}'],
  ['post', '/v1/source-influence'],
  ['post', '/v1/prompt-research'],
  ['get', '/stats'],
  ['get', '/capacity'],
  ['get', '/health'],
  ['get', '/ready'],
];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every `$ref` in a document, with the JSON pointer it names. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const x of node) refs(x, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = doc;
  for (const seg of ref.slice(2).split('/')) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

describe('GET /openapi.json', () => {
  let svc: RunningService;
  let doc: any;
  beforeAll(async () => {
    svc = await startIdleService();
    const r = await svc.raw('GET', '/openapi.json');
    expect(r.status).toBe(200);
    doc = r.body;
  });
  afterAll(() => svc.stop());

  it('is an OpenAPI 3 document with info and paths', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(typeof doc.info.title).toBe('string');
    expect(doc.info.version).toBe('1.0.0');
    expect(typeof doc.paths).toBe('object');
  });

  it('every operation has responses, and every path parameter is declared', () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      expect(path.startsWith('/'), path).toBe(true);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item)) {
        if (!HTTP_METHODS.includes(method)) continue;
        expect(Object.keys(op.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
        for (const code of Object.keys(op.responses))
          expect(code, `${method} ${path}`).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
        const declared = (op.parameters ?? item.parameters ?? []).filter((p: any) => p.in === 'path');
        expect(declared.map((p: any) => p.name).sort(), `${method} ${path}`).toEqual([...templated].sort());
        for (const p of declared) expect(p.required).toBe(true);
      }
    }
  });

  it('every $ref resolves inside the document', () => {
    for (const ref of refs(doc)) expect(resolvePointer(doc, ref), ref).toBeDefined();
  });

  for (const [method, path] of ENDPOINTS) {
    it(`lists ${method.toUpperCase()} ${path}`, () => {
      const op = doc.paths[path]?.[method];
      expect(op).toBeDefined();
      if (method === 'post') {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        expect(schema, `${path} request schema`).toBeDefined();
        // The request schema is itself a valid JSON schema.
        const ajv = new Ajv({ strict: false });
        expect(() => ajv.compile(schema)).not.toThrow();
      }
    });
  }

  it('the request schemas describe the contract fields', () => {
    const body = (p: string) => doc.paths[p].post.requestBody.content['application/json'].schema;
    const envelope = body('/v1/async/task');
    expect(envelope.required).toEqual(expect.arrayContaining(['taskType', 'payload']));
    expect(envelope.properties.taskType.enum).toEqual(
      expect.arrayContaining(['ANSWER_ENGINE_A', 'SEARCH_A_AIO', 'CITATION_ATTRIBUTION']),
    );
    expect(Object.keys(envelope.properties)).toEqual(
      expect.arrayContaining(['taskType', 'payload', 'idempotencyKey', 'priority', 'webhook']),
    );
    const batch = body('/v1/async/task/batch');
    expect(batch.type).toBe('array');
    expect(batch.items.properties?.taskType).toBeDefined();
    expect(body('/v1/source-influence').required).toEqual(expect.arrayContaining(['answer']));
    expect(Object.keys(body('/v1/prompt-research').properties)).toEqual(
      expect.arrayContaining([
        'seed',
        'country',
        'limit',
        'exclude',
        'monitorSize',
        'engines',
        'brand',
        'brandAliases',
        'brandDescription',
      ]),
    );
  });

  it('declares bearer security, with /health and /ready open', () => {
    const schemes = doc.components?.securitySchemes ?? {};
    const bearer = Object.values(schemes).find((s: any) => s.type === 'http' && s.scheme === 'bearer');
    expect(bearer).toBeDefined();
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(doc.paths['/ready'].get.security).toEqual([]);
  });

  it('does not list internal routes', () => {
    for (const p of Object.keys(doc.paths)) expect(p.startsWith('/internal')).toBe(false);
  });
});

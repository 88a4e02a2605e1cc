import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnalysisService, submitAnalysis } from '../analysis/analysis-service.js';
import { startPagesServer, type PagesServer } from '../analysis/pages-server.js';
import { waitTerminal, type RunningService } from '../helpers/service.js';

/**
 * The analysis results the service answers are what its OpenAPI document publishes: real SOURCE_INFLUENCE and
 * PROMPT_RESEARCH tasks, run by the sandboxed service (the sandbox's model and keyword tool, real cited pages on
 * 127.0.0.1), are polled and validated against `components.schemas` of GET /openapi.json. The schemas are closed
 * for the check (no member beyond those they name), and together the results carry every member a schema names,
 * the optional and extended ones included, so a member the builders add or drop without the schema fails here.
 */
const WRONG_SEARCHAD_SECRET = '1234567:sandbox-access-license:not-the-secret';

const ANSWER = [
  '1. The Acme Glide 3 is the best daily trainer for most runners and costs 130 dollars [2].',
  '2. Nike Pegasus is reliable, however it is expensive for beginners [3].',
  '',
  'Cushioned running shoes reduce the impact forces that travel through the knees during long runs [1].',
  'Most runners replace their running shoes every 500 to 800 kilometres [1][2][9].',
  // A figure the cited page gives otherwise (a contradiction), a link to no citation, a brand nobody asked about.
  'The Acme Glide 3 weighs 300 grams in a size nine [2].',
  'Read the [fitting guide](https://example.org/fitting-guide) before buying.',
  'Nike runners also try Hoka shoes, since many call Hoka shoes light.',
].join('\n');
const ENTITIES = [
  { id: 'acme', name: 'Acme', role: 'brand' },
  { id: 'nike', name: 'Nike', role: 'competitor' },
];

type Json = Record<string, unknown>;

/** The schema with `additionalProperties: false` on every object that names its members and says nothing else. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === 'enum' ? v : closed(v)]));
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** Every member path a schema names (`sources[].fetch.status`), object maps and their keys aside. */
function namedPaths(schema: Json, at = '', out = new Set<string>()): Set<string> {
  const props = schema.properties as Record<string, Json> | undefined;
  for (const [k, v] of Object.entries(props ?? {})) {
    out.add(`${at}${k}`);
    namedPaths(v, `${at}${k}.`, out);
  }
  if (schema.items) namedPaths(schema.items as Json, at.replace(/\.$/, '[].'), out);
  return out;
}

/** Every member path a value carries, in the same notation. */
function carriedPaths(value: unknown, at = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) carriedPaths(v, at.replace(/\.$/, '[].'), out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(`${at}${k}`);
      carriedPaths(v, `${at}${k}.`, out);
    }
  return out;
}

describe('analysis results against the published schemas', () => {
  let withModel: RunningService;
  let noModel: RunningService;
  let pages: PagesServer;
  let doc: { components: { schemas: Record<string, Json> } };
  const validators = new Map<string, ValidateFunction>();

  const citations = () => [
    { url: `${pages.base}/page/page-en.html` },
    { url: `${pages.base}/page/page-review.html`, position: 2 },
    { url: `${pages.base}/plain/pegasus`, title: 'Pegasus buyer notes', snippet: 'Pegasus is reliable.' },
    { url: `${pages.base}/missing` },
    { url: `${pages.base}/page/page-en.html` },
  ];

  const run = async (svc: RunningService, path: '/v1/source-influence' | '/v1/prompt-research', body: Json) => {
    const view = await waitTerminal(svc, await submitAnalysis(svc, path, body), 30_000);
    expect(view.task.status, JSON.stringify(view.error)).toBe('COMPLETED');
    return view.response as Json;
  };

  const check = (name: string, result: Json) => {
    let validate = validators.get(name);
    if (!validate) {
      const schema = doc.components.schemas[name];
      expect(schema, name).toBeDefined();
      validate = new Ajv({ strict: false, allErrors: true }).compile(closed(schema) as Json);
      validators.set(name, validate);
    }
    expect(validate(result) ? [] : validate.errors).toEqual([]);
  };

  beforeAll(async () => {
    pages = await startPagesServer();
    withModel = await startAnalysisService({ modelCheck: true });
    noModel = await startAnalysisService({ model: false, searchad: WRONG_SEARCHAD_SECRET });
    doc = (await withModel.call('GET', '/openapi.json')).body;
  });
  afterAll(async () => {
    await withModel?.stop();
    await noModel?.stop();
    await pages?.close();
  });

  it('the polling answer refers to both results by name', () => {
    const poll = (doc as any).paths['/v1/async/task/{id}'].get.responses['200'].content['application/json'].schema;
    expect(poll.properties.response.anyOf).toEqual(
      expect.arrayContaining([
        { $ref: '#/components/schemas/SourceInfluenceResult' },
        { $ref: '#/components/schemas/PromptResearchResult' },
      ]),
    );
  });

  it('SOURCE_INFLUENCE: with and without the model and the extended analysis', async () => {
    const results = [
      // The model judges pairs and completes every component of the extended analysis.
      await run(withModel, '/v1/source-influence', {
        answer: ANSWER,
        prompt: 'What are the best running shoes under $150 in 2025?',
        citations: citations(),
        analysis: { version: 1, entities: ENTITIES },
      }),
      // No model and no prompt: components partial or insufficient_input, decisions left null.
      await run(noModel, '/v1/source-influence', {
        answer: ANSWER,
        citations: citations(),
        analysis: { version: 1, entities: ENTITIES },
      }),
      // No extended analysis asked: no `analysis` member.
      await run(noModel, '/v1/source-influence', {
        answer: ANSWER,
        prompt: 'best running shoes',
        citations: citations(),
      }),
    ];
    for (const r of results) check('SourceInfluenceResult', r);
    expect(results.map((r) => 'analysis' in r)).toEqual([true, true, false]);

    const named = namedPaths(doc.components.schemas.SourceInfluenceResult as Json);
    const carried = new Set(results.flatMap((r) => [...carriedPaths(r)]));
    expect([...named].filter((p) => !carried.has(p))).toEqual([]);
  }, 90_000);

  it('PROMPT_RESEARCH: keyword volumes, a refused keyword tool, a seed that names the brand', async () => {
    const results = [
      // Volumes from the sandbox's keyword tool, a brand and a description (fit), a demand check.
      await run(withModel, '/v1/prompt-research', {
        seed: '강아지 사료',
        country: 'KR',
        limit: 10,
        monitorSize: 4,
        brand: '로얄캐닌',
        brandDescription: '소형견 강아지 사료 전문 브랜드',
      }),
      // The keyword tool refuses the signature: a warning that names it, autocomplete demand.
      await run(noModel, '/v1/prompt-research', { seed: '강아지 사료', country: 'KR', limit: 5, monitorSize: 2 }),
      await run(noModel, '/v1/prompt-research', {
        seed: 'running shoes',
        country: 'US',
        limit: 8,
        monitorSize: 3,
        exclude: ['nike'],
      }),
      await run(noModel, '/v1/prompt-research', { seed: 'acme shoes', country: 'US', brand: 'Acme' }),
    ];
    for (const r of results) check('PromptResearchResult', r);
    expect(results[0]?.demandCheck).not.toBeNull();
    const codes = (r: Json | undefined) => ((r?.warnings ?? []) as Json[]).map((w) => w.code);
    expect(codes(results[1])).toContain('VOLUME_LOOKUP_FAILED');
    expect(codes(results[3])).toContain('SEED_CONTAINS_BRAND');

    // `intentCoverage` names every intent and a set covers only some of them; prompt research calls no model, so its
    // token report's `calls` is always empty (the same schema is filled by source influence's).
    const named = [...namedPaths(doc.components.schemas.PromptResearchResult as Json)].filter(
      (p) => !p.startsWith('monitorSet.intentCoverage.') && !p.startsWith('usage.modelTokens.calls[].'),
    );
    const carried = new Set(results.flatMap((r) => [...carriedPaths(r)]));
    expect(named.filter((p) => !carried.has(p))).toEqual([]);
  }, 90_000);

  it('the check is strict: a member the schema does not name, or one it requires missing, fails', async () => {
    const r = await run(noModel, '/v1/source-influence', { answer: ANSWER, citations: citations() });
    check('SourceInfluenceResult', r);
    const validate = validators.get('SourceInfluenceResult') as ValidateFunction;
    expect(validate({ ...r, undocumented: 1 })).toBe(false);
    const { summary: _, ...withoutSummary } = r;
    expect(validate(withoutSummary)).toBe(false);
    const sources = r.sources as Json[];
    expect(
      validate({ ...r, sources: [{ ...sources[0], fetch: { ...(sources[0]?.fetch as Json), extra: true } }] }),
    ).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisConfig } from '../../src/analysis/config.js';
import { guardComponent, topLevelStatus } from '../../src/analysis/source-influence/extended/components.js';
import { startReceiver } from '../helpers/receiver.js';
import { deliverDue, waitTerminal, type RunningService } from '../helpers/service.js';
import { FAST_ANALYSIS, startAnalysisService, submitAnalysis } from './analysis-service.js';
import { startPagesServer, type PagesServer } from './pages-server.js';

/**
 * SOURCE_INFLUENCE with the interpretation model: the real service, the sandbox's OpenAI-compatible
 * model simulator and its failure directives (§2.11.4), and real cited pages on 127.0.0.1. Every
 * `analysis.status` value is reached here.
 */
const SANDBOX_MODEL_KEY = 'sk-sandbox-analysis-model';

const ANSWER = [
  '1. The Acme Glide 3 is the best daily trainer for most runners and costs 130 dollars [2].',
  '2. Nike Pegasus is reliable, however it is expensive for beginners [3].',
  '',
  'Cushioned running shoes reduce the impact forces that travel through the knees during long runs [1].',
  'Most runners replace their running shoes every 500 to 800 kilometres [1][2].',
].join('\n');
const PROMPT = 'What are the best running shoes under $150 in 2025?';
const ENTITIES = [
  { id: 'acme', name: 'Acme', role: 'brand' },
  { id: 'nike', name: 'Nike', role: 'competitor' },
];

describe('SOURCE_INFLUENCE with the sandbox model', () => {
  let svc: RunningService;
  let pages: PagesServer;
  const logs: string[] = [];
  const citations = () => [
    { url: `${pages.base}/page/page-en.html` },
    { url: `${pages.base}/page/page-review.html` },
    { url: `${pages.base}/plain/pegasus`, title: 'Pegasus buyer notes' },
  ];
  const run = async (body: Record<string, unknown>, on: RunningService = svc) => {
    const view = await waitTerminal(on, await submitAnalysis(on, '/v1/source-influence', body), 30_000);
    expect(view.task.status).toBe('COMPLETED');
    return view;
  };
  const extended = (prompt: string | undefined, extra: Record<string, unknown> = {}) => ({
    answer: ANSWER,
    ...(prompt === undefined ? {} : { prompt }),
    citations: citations(),
    analysis: { version: 1, entities: ENTITIES },
    ...extra,
  });

  beforeAll(async () => {
    pages = await startPagesServer();
    svc = await startAnalysisService({ logLines: logs });
  });
  afterAll(async () => {
    await svc.stop();
    await pages.close();
  });

  it('ok: every component completed by the model, quotes checked, tokens metered and billed', async () => {
    const view = await run(extended(PROMPT));
    const r = view.response;
    const a = r.analysis;
    expect(a).toMatchObject({
      status: 'ok',
      components: { questionRequirements: 'ok', brandDecisions: 'ok', sourceMetadata: 'ok' },
      errors: [],
    });

    const items = a.questionRequirements.items;
    expect(items.map((i: any) => [i.type, i.quote])).toEqual([
      ['topic', 'running shoes'],
      ['budget', 'under $150'],
      ['time', '2025'],
    ]);
    for (const i of items) expect(PROMPT).toContain(i.quote);
    expect(items[0]).toMatchObject({ coverage: 'addressed', supportingSourceIds: expect.arrayContaining(['c1']) });
    expect(a.questionRequirements.coverageRate).toBeGreaterThan(0);

    const [acme, nike] = a.brandDecisions.entities;
    expect(acme).toMatchObject({
      entityId: 'acme',
      mentioned: true,
      decision: 'recommended',
      topPick: true,
      sentiment: 1,
      listRank: 1,
    });
    expect(acme.reasons[0]).toMatchObject({ polarity: 'pro', unitIndex: 0, sourceIds: ['c2'] });
    expect(ANSWER.replace(/ \[\d\]/g, '')).toContain(acme.reasons[0].quote.replace(/\.$/, ''));
    expect(nike).toMatchObject({ entityId: 'nike', decision: 'mixed', topPick: false });

    const meta = Object.fromEntries(a.sourceMetadata.map((m: any) => [m.sourceId, m]));
    expect(meta.c1).toMatchObject({ sourceType: 'news', typeMethod: 'structured_data' });
    expect(meta.c2).toMatchObject({ ownership: { relation: 'owned', entityId: 'acme', method: 'site_name' } });
    expect(meta.c3).toMatchObject({ typeMethod: 'model', sourceType: 'editorial', mediaClass: 'earned' });

    const tokens = r.usage.modelTokens;
    expect(tokens.estimated).toBe(false);
    expect(tokens.calls.map((c: any) => [c.purpose, c.model, c.count])).toEqual([
      ['requirements', 'aeq-sandbox-model', 1],
      ['requirement_coverage', 'aeq-sandbox-model', 1],
      ['brand_decisions', 'aeq-sandbox-model', 1],
      ['source_classification', 'aeq-sandbox-model', 1],
    ]);
    expect(a.budget.tokensUsed).toBe(tokens.input + tokens.output);
    expect(a.budget.tokensUsed).toBeLessThanOrEqual(a.budget.tokenLimit);
    expect(r.summary.alignmentMethod).toBe('lexical');
    expect(view.credits.creditsCharged).toBe(r.usage.credits.charged);

    // The model key never reaches the result or the logs.
    expect(JSON.stringify(view)).not.toContain(SANDBOX_MODEL_KEY);
    expect(logs.join('\n')).not.toContain(SANDBOX_MODEL_KEY);
  });

  it('partial: requirement quotes not in the prompt are dropped; the rule-found constraints stay', async () => {
    const a = (await run(extended(`${PROMPT} sandbox:analysis_badquote=requirements`))).response.analysis;
    expect(a).toMatchObject({
      status: 'partial',
      components: { questionRequirements: 'partial', brandDecisions: 'ok', sourceMetadata: 'ok' },
    });
    expect(a.errors).toEqual([expect.objectContaining({ component: 'questionRequirements', code: 'QUOTE_NOT_FOUND' })]);
    expect(a.questionRequirements.items.map((i: any) => i.type)).toEqual(['budget', 'time']);
  });

  it('partial: a reason quoting text that is not in its unit is dropped', async () => {
    const a = (await run(extended(`${PROMPT} sandbox:analysis_badquote=brand_decisions`))).response.analysis;
    expect(a.components.brandDecisions).toBe('partial');
    expect(a.brandDecisions.entities[0]).toMatchObject({ decision: 'recommended', reasons: [] });
  });

  it('model_error: the model answers 5xx; deterministic fields stay', async () => {
    const a = (await run(extended(`${PROMPT} sandbox:analysis_error`))).response.analysis;
    expect(a).toMatchObject({
      status: 'model_error',
      components: { questionRequirements: 'model_error', brandDecisions: 'model_error', sourceMetadata: 'model_error' },
    });
    expect(a.errors.map((e: any) => `${e.component}:${e.code}`)).toEqual([
      'questionRequirements:MODEL_ERROR',
      'brandDecisions:MODEL_ERROR',
      'sourceMetadata:MODEL_ERROR',
    ]);
    expect(a.questionRequirements.items.map((i: any) => i.type)).toEqual(['budget', 'time']);
    expect(a.brandDecisions.entities[0]).toMatchObject({ mentioned: true, mentionCount: 1, decision: null });
    expect(a.sourceMetadata[2]).toMatchObject({ sourceType: 'other', typeMethod: null });
  });

  it('timeout: the first call times out and the model is not asked again in the task', async () => {
    const r = (await run(extended(`${PROMPT} sandbox:analysis_timeout`))).response;
    expect(r.analysis).toMatchObject({
      status: 'timeout',
      components: { questionRequirements: 'timeout', brandDecisions: 'timeout', sourceMetadata: 'timeout' },
    });
    expect(r.usage.modelTokens.calls).toEqual([
      { purpose: 'requirements', model: 'aeq-sandbox-model', count: 1, input: 0, output: 0 },
    ]);
  });

  it('invalid_output: prose instead of JSON, twice (one repair retry per step)', async () => {
    const r = (await run(extended(`${PROMPT} sandbox:analysis_invalid`))).response;
    expect(r.analysis).toMatchObject({
      status: 'invalid_output',
      components: {
        questionRequirements: 'invalid_output',
        brandDecisions: 'invalid_output',
        sourceMetadata: 'invalid_output',
      },
    });
    expect(r.usage.modelTokens.calls.map((c: any) => [c.purpose, c.count])).toEqual([
      ['requirements', 2],
      ['brand_decisions', 2],
      ['source_classification', 2],
    ]);
    expect(r.usage.modelTokens.input).toBeGreaterThan(0); // failed calls that consumed tokens are metered
  });

  it('ok after one repair: the second answer is valid', async () => {
    const r = (await run(extended(`${PROMPT} sandbox:analysis_repair=requirements`))).response;
    expect(r.analysis.status).toBe('ok');
    expect(r.usage.modelTokens.calls.map((c: any) => [c.purpose, c.count])).toEqual([
      ['requirements', 2],
      ['requirement_coverage', 1],
      ['brand_decisions', 1],
      ['source_classification', 1],
    ]);
  });

  it('a provider without usage is counted with the estimate and says so', async () => {
    const r = (await run(extended(`${PROMPT} sandbox:analysis_nousage`))).response;
    expect(r.analysis.status).toBe('ok');
    expect(r.usage.modelTokens.estimated).toBe(true);
    expect(r.usage.modelTokens.input).toBeGreaterThan(0);
  });

  it('insufficient_input: no prompt, and the other components fail', async () => {
    const body = extended(undefined, {
      answer: ANSWER.replace('costs 130 dollars', 'costs 130 dollars sandbox:analysis_error'),
      citations: [...citations().slice(0, 2), { url: `${pages.base}/plain/x`, title: 'Notes sandbox:analysis_error' }],
    });
    const a = (await run(body)).response.analysis;
    expect(a).toMatchObject({
      status: 'insufficient_input',
      components: {
        questionRequirements: 'insufficient_input',
        brandDecisions: 'model_error',
        sourceMetadata: 'model_error',
      },
    });
  });

  it('partial at top level when one component fails and the others succeed', async () => {
    const a = (await run(extended(`${PROMPT} sandbox:analysis_error=brand_decisions`))).response.analysis;
    expect(a).toMatchObject({
      status: 'partial',
      components: { questionRequirements: 'ok', brandDecisions: 'model_error', sourceMetadata: 'ok' },
    });
  });

  it('is deterministic: the same request, pages and model answers give a byte-identical result', async () => {
    const body = extended(PROMPT);
    const [a, b] = [await run(body), await run(body)];
    expect(JSON.stringify(b.response)).toBe(JSON.stringify(a.response));
  });

  it('the metered charge reaches the webhook: 12 fetches and the model tokens make 2 credits', async () => {
    const hooks = await startReceiver();
    try {
      const cites = Array.from({ length: 12 }, (_, i) => ({ url: `${pages.base}/copy/${i + 1}` }));
      const body = {
        answer: ANSWER,
        prompt: PROMPT,
        citations: cites,
        analysis: { version: 1, entities: ENTITIES },
        webhook: { url: `${hooks.url}/hook` },
      };
      const view = await run(body);
      await deliverDue(svc);
      expect(hooks.received).toHaveLength(1);
      const r = view.response;
      const tokens = r.usage.modelTokens.input + r.usage.modelTokens.output;
      expect(r.usage.sourceFetches.attempted).toBe(12);
      // ceil(12 × 0.1 + tokens × 0.00002) credits, within the contract's 1..3.
      expect(tokens).toBeGreaterThan(0);
      expect(tokens).toBeLessThan(40_000);
      expect(r.usage.credits.charged).toBe(2);
      expect(r.usage.credits.held).toBeGreaterThanOrEqual(r.usage.credits.charged);
      expect(view.credits).toEqual({ creditsToCharge: 2, creditsCharged: 2 });
      const hook = hooks.received[0]?.body;
      expect(hook.task).toMatchObject({ id: view.task.id, taskType: 'SOURCE_INFLUENCE', status: 'COMPLETED' });
      expect(hook.credits).toEqual({ creditsToCharge: 2, creditsCharged: 2 });
      expect(hook.response.usage.credits.charged).toBe(2);
    } finally {
      await hooks.close();
    }
  });

  it('the legacy shape makes no model call unless the model check is on', async () => {
    const r = (await run({ answer: ANSWER, prompt: PROMPT, citations: citations() })).response;
    expect(r).not.toHaveProperty('analysis');
    expect(r.usage.modelTokens).toEqual({ input: 0, output: 0, estimated: false, calls: [] });
  });
});

describe('SOURCE_INFLUENCE model budget and model check', () => {
  let pages: PagesServer;
  beforeAll(async () => {
    pages = await startPagesServer();
  });
  afterAll(() => pages.close());

  it('budget_exceeded: no call fits a tiny token budget', async () => {
    const svc = await startAnalysisService({
      analysis: analysisConfig({ ...FAST_ANALYSIS, si: { ...FAST_ANALYSIS.si, budget: { maxTokens: 300 } } }),
    });
    try {
      const body = {
        answer: ANSWER,
        prompt: PROMPT,
        citations: [{ url: `${pages.base}/plain/a` }],
        analysis: { version: 1, entities: ENTITIES },
      };
      const view = await waitTerminal(svc, await submitAnalysis(svc, '/v1/source-influence', body), 30_000);
      const r = view.response;
      expect(r.analysis).toMatchObject({
        status: 'budget_exceeded',
        components: {
          questionRequirements: 'budget_exceeded',
          brandDecisions: 'budget_exceeded',
          sourceMetadata: 'budget_exceeded',
        },
        budget: { tokenLimit: 300, tokensUsed: 0 },
      });
      expect(r.usage.modelTokens.calls).toEqual([]);
    } finally {
      await svc.stop();
    }
  });

  it('the model check judges borderline pairs, recomputes metrics (alignmentMethod lexical+model_check)', async () => {
    const svc = await startAnalysisService({ modelCheck: true });
    try {
      // A paraphrase: lexical support lands between the levels, which is what the model check is for.
      const answer = 'Runners who have knee pain often pick cushioned shoes, and a broad toe box suits wide feet [1].';
      const submit = (prompt: string) =>
        submitAnalysis(svc, '/v1/source-influence', { answer, prompt, citations: [`${pages.base}/plain/k`] });
      const view = await waitTerminal(svc, await submit('Which shoes help knee pain?'), 30_000);
      const r = view.response;
      expect(r.summary.alignmentMethod).toBe('lexical+model_check');
      expect(r.usage.modelTokens.calls.map((c: any) => [c.purpose, c.count])).toEqual([['model_check', 1]]);
      // The model gives labels, with no measured confidence: their expected support is the label's own (1, ½, 0).
      expect([1, 0.5, 0]).toContain(r.sources[0].evidence[0].support);

      const failed = (
        await waitTerminal(svc, await submit('Which shoes help knee pain? sandbox:analysis_error=model_check'), 30_000)
      ).response;
      expect(failed.summary.alignmentMethod).toBe('lexical');
      expect(failed.warnings.map((w: any) => w.code)).toContain('MODEL_CHECK_FAILED');
    } finally {
      await svc.stop();
    }
  });
});

describe('SOURCE_INFLUENCE in the sandbox with private targets refused', () => {
  it('cited pages go to the web simulator, the model is still reached (configuration, not a client URL)', async () => {
    const svc = await startAnalysisService({ env: { AEQ_READER_ALLOW_PRIVATE: '0' } });
    try {
      const body = {
        answer: 'The Acme Glide 3 is the best daily trainer for most runners [1]. Trail shoes need grippy lugs [2].',
        prompt: PROMPT,
        citations: ['https://news.example.com/2025/best-trainers', 'https://127.0.0.1:1/private'],
        analysis: { version: 1, entities: ENTITIES },
      };
      const view = await waitTerminal(svc, await submitAnalysis(svc, '/v1/source-influence', body), 30_000);
      const r = view.response;
      expect(r.sources[0].fetch.status).toBe('ok');
      expect(r.sources[1].fetch.status).toBe('ssrf_refused');
      expect(r.analysis.components).toMatchObject({ questionRequirements: 'ok', brandDecisions: 'ok' });
      expect(r.usage.modelTokens.calls.length).toBeGreaterThan(0);
    } finally {
      await svc.stop();
    }
  });
});

describe('component guard and top-level status (§2.11.4)', () => {
  it('an unexpected exception in a component is internal_error with the deterministic fallback', async () => {
    const out = await guardComponent(
      'brandDecisions',
      null,
      async () => {
        throw new TypeError('bug');
      },
      () => ({ entities: [] }),
    );
    expect(out).toEqual({
      status: 'internal_error',
      value: { entities: [] },
      errors: [{ component: 'brandDecisions', code: 'INTERNAL_ERROR', message: expect.any(String) }],
    });
    expect(
      topLevelStatus({
        questionRequirements: 'internal_error',
        brandDecisions: 'model_error',
        sourceMetadata: 'timeout',
      }),
    ).toBe('internal_error');
  });

  it('an aborting attempt is not a component failure', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(
      guardComponent(
        'sourceMetadata',
        ac.signal,
        async () => Promise.reject(new Error('aborted')),
        () => [],
      ),
    ).rejects.toThrow('aborted');
  });
});

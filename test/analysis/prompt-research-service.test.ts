import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPromptResearchAdapter } from '../../src/analysis/prompt-research/adapter.js';
import { questionKey } from '../../src/analysis/prompt-research/question-dedup.js';
import { UpstreamFailure } from '../../src/domain/engine-errors.js';
import type { RunningService } from '../helpers/service.js';
import { FAST_ANALYSIS, startAnalysisService } from './analysis-service.js';
import { researchAttempt, researchInput, runPromptResearch, useSimulator } from './prompt-research-rig.js';

/**
 * PROMPT_RESEARCH end to end against the sandbox autocomplete simulators (Google suggest, Naver ac):
 * every upstream is the simulator, so the result says `simulated: true` and names `sandbox_…` sources.
 */
describe('PROMPT_RESEARCH through the service', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startAnalysisService({ searchad: false });
  });
  afterAll(() => svc.stop());

  const run = (body: Record<string, unknown>) => runPromptResearch(svc, body);

  it('US "running shoes": ranked questions, canonical engines, planned tasks, filters applied', async () => {
    const view = await run({
      seed: 'running shoes',
      country: 'US',
      limit: 12,
      monitorSize: 5,
      engines: ['SEARCH_A_AIO', 'AIMODE', 'SEARCH_A_AIMODE', 'CHATBOT_A'],
    });
    expect(view.task).toMatchObject({ taskType: 'PROMPT_RESEARCH', status: 'COMPLETED' });
    const r = view.response;
    expect(r).toMatchObject({
      resultVersion: 1,
      methodVersion: 'prompt-research/1.2.0',
      simulated: true,
      demandBasis: 'autocomplete',
      demandCheck: null,
    });
    expect(r.input).toMatchObject({
      seed: 'running shoes',
      country: 'US',
      language: 'en',
      limit: 12,
      brand: null,
      hasBrandDescription: false,
    });
    expect(r.providers).toEqual([
      { name: 'sandbox_google_autocomplete', status: 'ok', requests: r.usage.autocompleteRequests.google, failures: 0 },
      { name: 'bing_autocomplete', status: 'disabled', requests: 0, failures: 0 },
      { name: 'google_ads', status: 'not_configured', requests: 0, failures: 0 },
    ]);
    expect(r.stats.requests).toBe(r.usage.autocompleteRequests.google);
    expect(r.stats.requests).toBeLessThanOrEqual(120);
    expect(r.questions).toHaveLength(12);
    expect(r.questions.map((q: any) => q.rank)).toEqual([...Array(12).keys()].map((i) => i + 1));
    const scores = r.questions.map((q: any) => q.demand.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores[0]).toBe(100);
    for (const q of r.questions) {
      expect(q.text).toMatch(/\?$/);
      expect(q.query).not.toMatch(/\p{Script=Hangul}|\p{Script=Katakana}|\.com/u);
      expect(q.demand).toMatchObject({ tierBasis: 'relative', monthlyVolume: null, volumeSource: null });
      expect(q.fit).toBeNull();
    }
    expect(r.stats.navigationalDropped + r.stats.scriptDropped + r.stats.nonQuestionDropped).toBeGreaterThan(0);
    expect(r.monitorSet).toMatchObject({
      engines: ['SEARCH_A', 'AIMODE', 'CHATBOT_A'],
      size: 5,
      requestedSize: 5,
      method: 'mmr',
      plannedTasks: 15,
    });
    expect(r.monitorSet.items.map((i: any) => i.order)).toEqual([1, 2, 3, 4, 5]);
    expect(Object.values(r.monitorSet.intentCoverage).reduce((a: number, b) => a + (b as number), 0)).toBe(5);
  });

  it('KR "강아지 사료" with a brand and description: brand left out, spacing variants merged, fit scored', async () => {
    const body = {
      seed: '강아지 사료',
      country: 'kr',
      limit: 20,
      monitorSize: 8,
      exclude: ['쿠팡'],
      brand: '로얄캐닌',
      brandAliases: ['Royal Canin'],
      brandDescription: '소형견과 퍼피, 노견을 위한 프리미엄 강아지 사료를 만듭니다.',
      engines: ['CHATBOT_A', 'SEARCH_B'],
    };
    const view = await run(body);
    expect(view.task.status).toBe('COMPLETED');
    const r = view.response;
    expect(r.input).toMatchObject({
      country: 'KR',
      language: 'ko',
      brand: '로얄캐닌',
      brandAliases: ['Royal Canin'],
      hasBrandDescription: true,
      exclude: ['쿠팡'],
    });
    expect(r.providers.map((p: any) => [p.name, p.status])).toEqual([
      ['sandbox_naver_autocomplete', 'ok'],
      ['sandbox_google_autocomplete', 'ok'],
      ['sandbox_searchad', 'not_configured'],
      ['google_ads', 'not_configured'],
    ]);
    expect(r.questions.length).toBeGreaterThan(0);
    const everything = r.questions.flatMap((q: any) => [q.query, ...q.variants]);
    expect(everything.some((s: string) => /로얄\s?캐닌|쿠팡/.test(s))).toBe(false);
    expect(r.stats.excludedByBrand).toBeGreaterThan(0);
    const recommend = r.questions.find((q: any) => q.query === '강아지 사료 추천');
    expect(recommend).toMatchObject({
      text: '강아지 사료 추천해줘',
      textOrigin: 'templated',
      intent: 'recommendation',
      modifier: '추천',
    });
    expect(recommend.variants).toContain('강아지사료 추천');
    expect(recommend.demand.evidence).toMatchObject({ providers: ['naver', 'google'], bestRank: 1, seenForSeed: true });
    // The simulator suggests this year and last year (from the clock). The two never share a cluster (§3.6), but
    // both are asked about this year: one question, the other query among its variants, no past year asked.
    const year = new Date().getUTCFullYear();
    const dated = r.questions.filter((q: any) => /20\d\d/.test(q.text));
    expect(dated.map((q: any) => q.text)).toContain(`${year}년 강아지 사료 추천해줘`);
    for (const q of dated) expect(q.text).toContain(String(year));
    const thisYears = r.questions.find((q: any) => q.text === `${year}년 강아지 사료 추천해줘`);
    expect([thisYears.query, ...thisYears.variants]).toEqual(
      expect.arrayContaining([`강아지 사료 추천 ${year}`, `강아지 사료 추천 ${year - 1}`]),
    );
    for (const q of r.questions) expect(q.fit).toMatchObject({ method: 'lexical', score: expect.any(Number) });
    expect(r.monitorSet).toMatchObject({ engines: ['CHATBOT_A', 'SEARCH_B_AI_BRIEF'], size: 8, plannedTasks: 16 });
    for (const item of r.monitorSet.items) expect(item.fitScore).toEqual(expect.any(Number));

    // Same request, same upstream answers: byte-identical result.
    const again = await run(body);
    expect(JSON.stringify(again.response)).toBe(JSON.stringify(r));
  });

  it('US, a description sharing no word: fit has no basis; no question twice, none of a past year', async () => {
    const r = (
      await run({
        seed: 'running shoes',
        country: 'US',
        limit: 30,
        monitorSize: 5,
        brand: 'Trailfox',
        brandDescription: 'Swiss craftsmanship since 1921, sold in 40 countries.',
      })
    ).response;
    expect(r.questions.length).toBeGreaterThan(10);
    for (const q of r.questions) expect(q.fit).toEqual({ score: null, method: 'lexical', basis: 'none', terms: [] });
    expect(r.warnings.map((w: { code: string }) => w.code)).toContain('NO_FIT_BASIS');
    const keys = r.questions.map((q: { text: string }) => questionKey(q.text));
    expect(new Set(keys).size).toBe(keys.length);
    const year = new Date().getUTCFullYear();
    const years = r.questions.flatMap((q: { text: string }) => (q.text.match(/\b20\d\d\b/g) ?? []).map(Number));
    expect(years.length).toBeGreaterThan(0);
    for (const y of years) expect(y).toBeGreaterThanOrEqual(year);
  });

  it('a seed holding the brand completes with no questions and SEED_CONTAINS_BRAND, asking no provider', async () => {
    const view = await run({ seed: 'apple watch', country: 'US', brand: 'Apple', limit: 5, monitorSize: 3 });
    expect(view.task.status).toBe('COMPLETED');
    const r = view.response;
    expect(r.questions).toEqual([]);
    expect(r.monitorSet).toMatchObject({ size: 0, items: [], plannedTasks: 0 });
    expect(r.warnings.map((w: any) => w.code)).toEqual([
      'SEED_CONTAINS_BRAND',
      'NO_SUGGESTIONS',
      'FEWER_THAN_LIMIT',
      'MONITOR_SET_SMALLER',
    ]);
    expect(r.usage.autocompleteRequests).toEqual({ google: 0, naver: 0, bing: 0 });
    expect(r.providers[0]).toMatchObject({ name: 'sandbox_google_autocomplete', status: 'disabled' });
  });
});

/** The adapter against the real simulator and a real transport, for directives the API's seed rule cannot carry. */
describe('PROMPT_RESEARCH adapter against the autocomplete simulators', () => {
  const rig = useSimulator();
  const ctx = (seed: string, country: 'KR' | 'US') =>
    researchAttempt(rig.agent, researchInput(seed, country), {
      baseUrl: `${rig.sim.url}/google-suggest`,
      headers: {},
      options: { naverBaseUrl: `${rig.sim.url}/naver-ac` },
    });
  const adapter = createPromptResearchAdapter({ config: FAST_ANALYSIS, cache: null });
  const result = async (seed: string, country: 'KR' | 'US') => (await adapter.run(ctx(seed, country))).extra as any;

  it(
    'a captcha makes Google rate-limited (429): the provider stops, ' +
      'the task still completes without inventing questions',
    async () => {
      const r = await result('running shoes sandbox:captcha', 'US');
      // Requests already in flight when the first 429 arrives also count (at most one per concurrent slot).
      expect(r.providers[0]).toMatchObject({ name: 'sandbox_google_autocomplete', status: 'rate_limited' });
      expect(r.providers[0].requests).toBeLessThanOrEqual(FAST_ANALYSIS.pr.requests.perProviderConcurrency);
      expect(r.providers[0].failures).toBe(r.providers[0].requests);
      expect(r.questions).toEqual([]);
      expect(r.warnings.map((w: any) => w.code)).toEqual([
        'PROVIDER_RATE_LIMITED',
        'NO_SUGGESTIONS',
        'FEWER_THAN_LIMIT',
        'MONITOR_SET_SMALLER',
      ]);
    },
  );

  it('in KR a Naver block page stops Naver with status blocked', async () => {
    const r = await result('강아지 사료 sandbox:captcha', 'KR');
    expect(r.providers.slice(0, 2).map((p: any) => [p.name, p.status])).toEqual([
      ['sandbox_naver_autocomplete', 'blocked'],
      ['sandbox_google_autocomplete', 'rate_limited'],
    ]);
  });

  it('empty lists are a legitimate answer: providers ok, NO_SUGGESTIONS', async () => {
    const r = await result('running shoes sandbox:empty', 'US');
    expect(r.providers[0]).toMatchObject({ status: 'ok', failures: 0 });
    expect(r.stats.suggestions).toBe(0);
    expect(r.warnings[0].code).toBe('NO_SUGGESTIONS');
  });

  it('one 5xx per request is retried once; persistent 5xx fails the attempt so the scheduler can retry', async () => {
    const flaky = await result('running shoes sandbox:flaky=1', 'US');
    expect(flaky.providers[0]).toMatchObject({ status: 'ok', failures: 0 });
    expect(flaky.questions.length).toBe(5);
    let err: unknown;
    try {
      await result('running shoes sandbox:error', 'US');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UpstreamFailure);
    expect((err as UpstreamFailure).kind).toBe('UPSTREAM_ERROR');
  });

  it('reads the chrome and gws-wiz formats of the simulator too', async () => {
    for (const googleClient of ['chrome', 'gws-wiz'] as const) {
      const a = createPromptResearchAdapter({
        config: { ...FAST_ANALYSIS, pr: { ...FAST_ANALYSIS.pr, googleClient } },
        cache: null,
      });
      const r = (await a.run(ctx('running shoes', 'US'))).extra as any;
      expect(r.providers[0].status).toBe('ok');
      expect(r.questions.length).toBe(5);
    }
  });
});

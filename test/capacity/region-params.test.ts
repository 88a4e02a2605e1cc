import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineTaskType } from '../../src/domain/task-types.js';
import { runTask } from '../helpers/service.js';
import { startTappedService, type TappedService } from './tapped-service.js';
import type { TappedRequest } from './upstream-tap.js';

/**
 * `payload.country` on the wire, engine by engine (docs/engines.md#region-parameters): what the simulator receives
 * for the same task in US and in KR, read through a recording tap. Engines whose upstream has a
 * region parameter must send KR's; engines whose upstream has none (Gemini grounding, Naver,
 * Reddit) must send the same request whatever the country.
 *
 * Gaps this closes (the engine test files covered the rest before): CHATBOT_A was checked only on
 * its request builder, ANSWER_ENGINE_A not at all; SEARCH_A_SERP had no KR check; SEARCH_C_SEARCH
 * and SEARCH_C_ASSISTANT were checked only through Korean answers to Hangul prompts (which the
 * prompt alone explains); WEB_SCRAPE only with the US Accept-Language; the engines that ignore the
 * country had no test saying so.
 */
describe('payload.country reaches each upstream as its region parameter', () => {
  let t: TappedService;
  beforeAll(async () => {
    t = await startTappedService();
  });
  afterAll(() => t.stop());

  /** The requests the upstream received for one task in `country`; the task must complete. */
  const sent = async (
    taskType: EngineTaskType,
    payload: Record<string, unknown>,
    country: string,
  ): Promise<TappedRequest[]> => {
    const { result, requests } = await t.tap.during(() =>
      runTask(t.svc, { taskType, payload: { ...payload, country } }),
    );
    expect(result.task.status, `${taskType} ${country}: ${result.error ?? ''}`).toBe('COMPLETED');
    expect(requests.length).toBeGreaterThan(0);
    return requests;
  };
  const only = (rs: TappedRequest[]): TappedRequest => {
    expect(rs).toHaveLength(1);
    return rs[0] as TappedRequest;
  };
  const bodyOf = (r: TappedRequest): any => JSON.parse(r.body);
  const query = (r: TappedRequest) => new URL(r.url, 'http://tap').searchParams;

  it('CHATBOT_A: web_search user_location (country, capital, time zone)', async () => {
    const us = bodyOf(only(await sent('CHATBOT_A', { prompt: 'best hiking boots' }, 'US')));
    const kr = bodyOf(only(await sent('CHATBOT_A', { prompt: 'best hiking boots' }, 'KR')));
    expect(us.tools[0].user_location).toMatchObject({ type: 'approximate', country: 'US' });
    expect(kr.tools[0].user_location).toEqual({
      type: 'approximate',
      country: 'KR',
      city: 'Seoul',
      region: 'Seoul',
      timezone: 'Asia/Seoul',
    });
  });

  it('ANSWER_ENGINE_A: web_search_options.user_location.country', async () => {
    const us = bodyOf(only(await sent('ANSWER_ENGINE_A', { prompt: 'best hiking boots' }, 'US')));
    const kr = bodyOf(only(await sent('ANSWER_ENGINE_A', { prompt: 'best hiking boots' }, 'KR')));
    expect(us.web_search_options.user_location).toEqual({ country: 'US' });
    expect(kr.web_search_options.user_location).toEqual({ country: 'KR' });
  });

  it('SEARCH_A, AIMODE and SEARCH_A_SERP: hl=ko, gl=kr and a Korean Accept-Language', async () => {
    for (const taskType of ['SEARCH_A', 'AIMODE', 'SEARCH_A_SERP'] as const) {
      const us = only(await sent(taskType, { query: 'best hiking boots' }, 'US'));
      const kr = only(await sent(taskType, { query: 'best hiking boots' }, 'KR'));
      expect([query(us).get('hl'), query(us).get('gl')], taskType).toEqual(['en', 'us']);
      expect([query(kr).get('hl'), query(kr).get('gl')], taskType).toEqual(['ko', 'kr']);
      expect(us.headers['accept-language']).toMatch(/^en-US/);
      expect(kr.headers['accept-language']).toMatch(/^ko-KR/);
    }
  });

  it('SEARCH_C_SEARCH: cc, mkt, setlang, the _EDGE cookies and Accept-Language', async () => {
    const us = only(await sent('SEARCH_C_SEARCH', { query: 'hiking boots' }, 'US'));
    const kr = only(await sent('SEARCH_C_SEARCH', { query: 'hiking boots' }, 'KR'));
    expect([query(us).get('cc'), query(us).get('mkt'), query(us).get('setlang')]).toEqual(['US', 'en-US', 'en']);
    expect([query(kr).get('cc'), query(kr).get('mkt'), query(kr).get('setlang')]).toEqual(['KR', 'ko-KR', 'ko']);
    expect(kr.headers.cookie).toContain('_EDGE_CD=m=ko-KR&u=ko');
    expect(kr.headers['accept-language']).toBe('ko-KR,ko;q=0.9');
  });

  it('SEARCH_C_ASSISTANT: Accept-Language on every HTTP call and on the chat socket upgrade', async () => {
    const us = await sent('SEARCH_C_ASSISTANT', { prompt: 'hiking boots' }, 'US');
    const kr = await sent('SEARCH_C_ASSISTANT', { prompt: 'hiking boots' }, 'KR');
    expect(kr.some((r) => r.upgrade)).toBe(true);
    for (const r of us) expect(r.headers['accept-language'], r.url).toBe('en-US,en;q=0.9');
    for (const r of kr) expect(r.headers['accept-language'], r.url).toBe('ko-KR,ko;q=0.9');
  });

  it('WEB_SCRAPE: the page is asked for in the country language', async () => {
    const url = `${t.tap.url}/web/https/example.com/hiking-guide`;
    const us = only(await sent('WEB_SCRAPE', { url }, 'US'));
    const kr = only(await sent('WEB_SCRAPE', { url }, 'KR'));
    expect(us.headers['accept-language']).toBe('en-US,en;q=0.9');
    expect(kr.headers['accept-language']).toMatch(/^ko-KR,ko;q=0\.9/);
  });

  it('upstreams without a region parameter get the same request whatever the country', async () => {
    const cases: Array<[EngineTaskType, Record<string, unknown>]> = [
      // Gemini grounding has no region parameter (docs/engines.md#region-parameters).
      ['ASSISTANT_A', { prompt: 'best hiking boots' }],
      // Naver is a Korea-only service: always Korean, for any country.
      ['SEARCH_B_AI_BRIEF', { query: '캠핑 장비' }],
      ['SEARCH_B_AI_TAB', { query: '캠핑 장비' }],
      ['SEARCH_B_SERP', { query: '캠핑 장비' }],
      // Reddit has none either.
      ['FORUM', { query: 'grinder' }],
    ];
    const shape = (rs: TappedRequest[]) =>
      rs.map((r) => ({ method: r.method, url: r.url, al: r.headers['accept-language'] ?? null, body: r.body }));
    for (const [taskType, payload] of cases) {
      const us = await sent(taskType, payload, 'US');
      const kr = await sent(taskType, payload, 'KR');
      expect(shape(kr), taskType).toEqual(shape(us));
      if (taskType.startsWith('SEARCH_B'))
        for (const r of kr) expect(r.headers['accept-language']).toBe('ko-KR,ko;q=0.9');
    }
  });
});

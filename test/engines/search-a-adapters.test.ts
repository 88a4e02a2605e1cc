import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineConfig } from '../../src/config/engine-config.js';
import type { TaskPayload } from '../../src/domain/task.js';
import type { TaskType } from '../../src/domain/task-types.js';
import type { EngineAdapter } from '../../src/engines/adapter.js';
import { aiMode } from '../../src/engines/search-a/aimode.js';
import { regionLanguage } from '../../src/engines/search-a/region-language.js';
import { searchASerp } from '../../src/engines/search-a/search-a-serp.js';
import { searchA } from '../../src/engines/search-a/search-a.js';
import { buildSearchRequest } from '../../src/engines/search-a/search-request.js';
import { UndiciTransport } from '../../src/transport/undici-transport.js';
import { createLogger } from '../../src/ops/logger.js';
import { startSimulator, type Simulator } from '../../src/sandbox/server.js';
import { inlineParse } from '../../src/engines/parse-pool/pool.js';

function engineConfig(baseUrl: string): EngineConfig {
  return {
    mode: 'anon',
    concurrency: 1,
    timeoutMs: 5000,
    maxAttempts: 1,
    credits: 1,
    neverServe: [],
    paused: false,
    upstream: { baseUrl, headers: {}, options: {} },
  };
}

describe('region language table', () => {
  it('derives hl, gl and a matching Accept-Language from the country', () => {
    expect(regionLanguage('KR')).toEqual({
      country: 'KR',
      gl: 'kr',
      hl: 'ko',
      language: 'ko',
      locale: 'ko-KR',
      acceptLanguage: 'ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.6',
    });
    expect(regionLanguage('us')).toMatchObject({ gl: 'us', hl: 'en', acceptLanguage: 'en-US,en;q=0.9' });
    expect(regionLanguage('JP')).toMatchObject({ hl: 'ja', gl: 'jp' });
    expect(regionLanguage('DE')).toMatchObject({
      hl: 'de',
      gl: 'de',
      acceptLanguage: expect.stringMatching(/^de-DE,de;q=0\.9/),
    });
    expect(regionLanguage('GB')).toMatchObject({ hl: 'en', gl: 'gb', locale: 'en-GB' });
    expect(regionLanguage('BR')).toMatchObject({ hl: 'pt-BR', gl: 'br' });
    // Unlisted countries keep their gl and fall back to English.
    expect(regionLanguage('KE')).toMatchObject({ hl: 'en', gl: 'ke', locale: 'en-KE' });
  });
});

describe('Google request building', () => {
  const config = engineConfig('https://www.google.com/');
  it('sends q, hl, gl, pws=0, udm=50 for AI Mode and start for later pages, with browser headers', () => {
    const web = buildSearchRequest({ payload: { query: 'rust async' }, country: 'US', config });
    const u = new URL(web.url);
    expect(u.origin + u.pathname).toBe('https://www.google.com/search');
    expect(Object.fromEntries(u.searchParams)).toEqual({ q: 'rust async', hl: 'en', gl: 'us', pws: '0' });
    expect(web.headers['user-agent']).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\).*Chrome\/\d+/);
    expect(web.headers['accept-language']).toBe('en-US,en;q=0.9');

    const ai = new URL(
      buildSearchRequest({ payload: { prompt: '전기차 보조금' }, country: 'KR', config }, { udm: 50 }).url,
    );
    expect(Object.fromEntries(ai.searchParams)).toEqual({
      q: '전기차 보조금',
      hl: 'ko',
      gl: 'kr',
      udm: '50',
      pws: '0',
    });

    const p3 = new URL(buildSearchRequest({ payload: { query: 'x' }, country: 'US', config }, { page: 3 }).url);
    expect(p3.searchParams.get('start')).toBe('20');
  });

  it('lets the deployment override headers (e.g. its own browser UA)', () => {
    const custom = { ...config, upstream: { ...config.upstream, headers: { 'User-Agent': 'Custom/1.0' } } };
    expect(buildSearchRequest({ payload: { query: 'x' }, country: 'US', config: custom }).headers['user-agent']).toBe(
      'Custom/1.0',
    );
  });
});

describe('Google adapters against the sandbox upstream', () => {
  let sim: Simulator;
  let agent: Agent;
  beforeAll(async () => {
    sim = await startSimulator();
    agent = new Agent();
  });
  afterAll(async () => {
    await agent.close();
    await sim.close();
  });

  function run(adapter: EngineAdapter, taskType: TaskType, payload: TaskPayload, country: string) {
    return adapter.run({
      taskId: 't1',
      tenant: 'default',
      taskType,
      payload,
      country,
      config: engineConfig(`${sim.url}/google`),
      http: new UndiciTransport('test-exit', agent, false),
      account: null,
      signal: AbortSignal.timeout(5000),
      parse: inlineParse(),
      log: createLogger('silent'),
      attempt: 1,
    });
  }

  it('asks for hl=ko&gl=kr for a KR task and the page comes back in Korean', async () => {
    const r = await run(searchA, 'SEARCH_A', { prompt: 'best laptops sandbox:aio' }, 'KR');
    expect(r.raw).toMatchObject({
      request: { hl: 'ko', gl: 'kr' },
      servedLanguage: 'ko',
      status: 200,
      aioStatus: 'present',
    });
    expect(new URL((r.raw as { request: { url: string } }).request.url).searchParams.get('gl')).toBe('kr');
    expect(r.text).toMatch(/\p{Script=Hangul}/u);
  });

  it('records selector tiers and page facts in raw', async () => {
    const r = await run(searchASerp, 'SEARCH_A_SERP', { query: 'trail running shoes', page: 2 }, 'US');
    expect(r.raw).toMatchObject({
      page: 2,
      servedLanguage: 'en',
      tiers: { root: '#search', link: 'a:has(h3)' },
      aioStatus: 'not-read',
    });
    expect((r.raw as { organicCount: number }).organicCount).toBeGreaterThanOrEqual(8);
  });

  it('AI Mode records the container tier and the turn query', async () => {
    const r = await run(aiMode, 'AIMODE', { prompt: 'how to brew pour-over coffee' }, 'US');
    expect(r.raw).toMatchObject({
      tiers: { container: 'data-subtree=aimc', prose: 'main-col' },
      turnQuery: 'how to brew pour-over coffee',
    });
  });

  it('follows the captcha redirect to the sorry page and reports a block', async () => {
    await expect(run(searchA, 'SEARCH_A', { prompt: 'x sandbox:captcha' }, 'US')).rejects.toMatchObject({
      kind: 'UPSTREAM_BLOCKED',
    });
  });
});

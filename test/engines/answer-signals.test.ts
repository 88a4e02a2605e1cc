/**
 * The answer signals (docs/contract.md#answer-signals) through the service on the sandbox: the searches an engine
 * ran, whether it searched, and the pages it read but did not cite, for the three API answer engines; null for what
 * an engine cannot see; absent on engines that write no answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

interface Answer {
  sources: Array<{ url: string }>;
  searchQueries: string[] | null;
  searchTriggered: boolean | null;
  retrievedSources: Array<{ position: number; url: string; title: string | null; query: string | null }> | null;
  products: unknown;
  ads: unknown;
  places: unknown;
}

const ENGINES = ['CHATBOT_A', 'ANSWER_ENGINE_A', 'ASSISTANT_A'] as const;

describe('answer signals through the sandbox', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const config = writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });
    svc = await startService({ AEQ_CONFIG: config, AEQ_ENGINE_TIMEOUT_MS: '20000' });
  });
  afterAll(() => svc.stop());

  const ask = async (taskType: string, prompt: string): Promise<Answer> => {
    const r = await runTask(svc, { taskType, payload: { prompt, country: 'US' } });
    expect(r.task.status, r.error).toBe('COMPLETED');
    return r.response as Answer;
  };

  it.each(ENGINES)('%s: the searches it ran, that it searched, and what it read but did not cite', async (engine) => {
    const a = await ask(engine, 'best trail running shoes');
    expect(a.searchTriggered).toBe(true);
    if (engine === 'ANSWER_ENGINE_A') expect(a.searchQueries).toBeNull();
    else expect(a.searchQueries).toEqual(['best trail running shoes']);
    const retrieved = a.retrievedSources ?? [];
    expect(retrieved.map((x) => x.position)).toEqual(retrieved.map((_, i) => i + 1));
    expect(retrieved.some((x) => x.url.startsWith('https://consulted.example.net/'))).toBe(true);
    for (const x of retrieved) expect(a.sources.map((s) => s.url)).not.toContain(x.url);
    if (engine === 'CHATBOT_A') expect(retrieved[0]?.query).toBe('best trail running shoes');
    // Nothing here reads product cards, ads or local cards yet: unknown, not an empty guess.
    expect([a.products, a.ads, a.places]).toEqual([null, null, null]);
  });

  it.each(ENGINES)('%s: an answer from memory says it did not search (sandbox:nosearch)', async (engine) => {
    const a = await ask(engine, 'what is a trail running shoe sandbox:nosearch');
    expect(a.searchTriggered).toBe(false);
    expect(a.sources).toEqual([]);
    expect(a.retrievedSources).toEqual([]);
    if (engine !== 'ANSWER_ENGINE_A') expect(a.searchQueries).toEqual([]);
  });

  it.each(['AIMODE', 'SEARCH_A'])(
    '%s: searched by design; what the page does not show is null, the page cards lists',
    async (engine) => {
      const r = await runTask(svc, { taskType: engine, payload: { query: 'best trail running shoes', country: 'US' } });
      expect(r.task.status, r.error).toBe('COMPLETED');
      const a = r.response as Answer;
      expect(a.searchTriggered).toBe(true);
      expect([a.searchQueries, a.retrievedSources]).toEqual([null, null]);
      if (engine === 'AIMODE') expect([a.products, a.ads, a.places]).toEqual([null, null, null]);
      // The results page's shopping unit, ads and local pack are read (docs/engines.md#google-page-cards): lists.
      else for (const kind of [a.products, a.ads, a.places]) expect(Array.isArray(kind)).toBe(true);
    },
  );

  it('an engine that writes no answer carries no signal members (SEARCH_A_SERP: only its page cards)', async () => {
    const r = await runTask(svc, { taskType: 'SEARCH_A_SERP', payload: { query: 'trail running shoes' } });
    expect(r.task.status, r.error).toBe('COMPLETED');
    expect(Object.keys(r.response as object)).not.toContain('searchTriggered');
    expect(Object.keys(r.response as object)).not.toContain('retrievedSources');
  });
});

/**
 * The region asked for and served (docs/contract.md#region): the task's country, the exit address's, and the
 * engine's own signal where it gives one (Google's footer and `lang`).
 */
describe('region through the sandbox', () => {
  let svc: RunningService;
  beforeAll(async () => {
    const config = writeConfig(tempDir(), { scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100 } });
    svc = await startService({ AEQ_CONFIG: config, AEQ_ENGINE_TIMEOUT_MS: '20000' });
  });
  afterAll(() => svc.stop());

  const region = async (taskType: string, payload: Record<string, unknown>) => {
    const r = await runTask(svc, { taskType, payload });
    expect(r.task.status, r.error).toBe('COMPLETED');
    return (r.response as { region: unknown }).region;
  };

  it.each(['SEARCH_A', 'SEARCH_A_SERP', 'AIMODE'])('%s: Google says where it served the page for', async (engine) => {
    expect(await region(engine, { query: 'running shoes', country: 'KR', language: 'ko' })).toEqual({
      requested: 'KR',
      exit: 'KR',
      engine: { country: 'KR', language: 'ko', signal: 'google footer, html lang' },
    });
    expect(await region(engine, { query: 'running shoes', country: 'DE' })).toMatchObject({
      requested: 'DE',
      exit: 'DE',
      engine: { country: 'DE', signal: 'google footer, html lang' },
    });
  });

  it('an engine that does not say gives the asked and exit countries and null for its own', async () => {
    expect(await region('CHATBOT_A', { prompt: 'running shoes', country: 'KR' })).toEqual({
      requested: 'KR',
      exit: 'KR',
      engine: null,
    });
  });

  it('no country asked: requested is null and the exit address says where it came from', async () => {
    const r = (await region('ANSWER_ENGINE_A', { prompt: 'running shoes' })) as { requested: unknown; exit: string };
    expect(r.requested).toBeNull();
    expect(r.exit).toMatch(/^[A-Z]{2}$/);
  });
});

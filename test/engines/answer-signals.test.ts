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

  it('an answer engine that does not read the signals yet gives null for each', async () => {
    const a = await ask('AIMODE', 'best trail running shoes');
    expect([a.searchQueries, a.searchTriggered, a.retrievedSources, a.products, a.ads, a.places]).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('an engine that writes no answer carries no signal members', async () => {
    const r = await runTask(svc, { taskType: 'SEARCH_A_SERP', payload: { query: 'trail running shoes' } });
    expect(r.task.status, r.error).toBe('COMPLETED');
    expect(Object.keys(r.response as object)).not.toContain('searchTriggered');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMonitorToEnd } from '../helpers/monitors.js';
import { fastConfig, startService, steppedClock, TEST_KEY, tempDir, type RunningService } from '../helpers/service.js';

interface Interval {
  low: number;
  high: number;
}

interface Point {
  engine: string;
  searchRate: number | null;
  intervals: { searchRate: Interval | null };
  counts: { answers: number; searchKnown: number; searchedAnswers: number; retrievalKnown: number };
  topCitedDomains: Array<{
    domain: string;
    answers: number;
    citationRate: number | null;
    citationRateInterval: Interval | null;
    retrievalRate: number | null;
  }>;
  topRetrievedDomains: Array<{ domain: string; answers: number; citedAnswers: number; retrievalRate: number }>;
  methodVersion: string;
}

/**
 * What is behind a monitor's answers (docs/analysis.md §6.9), through the service on the sandbox, both stores: an
 * engine that says whether it searched and what it read gives a search rate and retrieval rates with intervals; one
 * prompt answered from memory (`sandbox:nosearch`) lowers the search rate by its share; an engine that tells
 * neither leaves them null. The run keeps each answer's searches and the pages read but not cited.
 */
describe('search and retrieval rates of a monitor', () => {
  const clock = steppedClock(Date.UTC(2026, 10, 20, 10));
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()) }, { clock });
  });
  afterAll(() => svc?.stop());

  it('gives each engine its search rate and each domain its citation and retrieval rate', async () => {
    const prompts = [
      'best running shoes for flat feet',
      'running shoes for beginners',
      'what is a running shoe sandbox:nosearch',
    ];
    const made = await svc.call('POST', '/v1/monitors', {
      name: 'behind',
      prompts,
      engines: ['CHATBOT_A', 'ANSWER_ENGINE_A', 'SEARCH_B_AI_BRIEF'],
      brand: { name: 'Hoka', domains: ['hoka.com'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.monitor.id as string;
    await svc.call('PATCH', `/v1/monitors/${id}`, { status: 'paused' });
    await runMonitorToEnd(svc, id);

    const series = (await svc.call('GET', `/v1/monitors/${id}/metrics`)).body.series as Point[];
    for (const engine of ['CHATBOT_A', 'ANSWER_ENGINE_A']) {
      const p = series.find((x) => x.engine === engine) as Point;
      expect(p.methodVersion).toBe('visibility/1.3.0');
      // Two of three prompts searched; the one from memory did not.
      expect(p.counts).toMatchObject({ answers: 3, searchKnown: 3, searchedAnswers: 2, retrievalKnown: 3 });
      expect(p.searchRate).toBe(0.6667);
      expect(p.intervals.searchRate?.low).toBeLessThan(0.6667);
      expect(p.intervals.searchRate?.high).toBeGreaterThan(0.6667);
      // The sandbox's engines read one page each answer that they do not cite.
      const consulted = p.topRetrievedDomains.find((d) => d.domain === 'example.net');
      expect(consulted, JSON.stringify(p.topRetrievedDomains)).toBeDefined();
      expect(consulted?.answers).toBeGreaterThanOrEqual(2);
      for (const d of p.topRetrievedDomains) {
        expect(d.citedAnswers).toBeLessThanOrEqual(d.answers);
        expect(d.retrievalRate).toBe(Math.round((d.answers / 3) * 1e4) / 1e4);
      }
      for (const d of p.topCitedDomains) {
        expect(d.citationRate).toBe(Math.round((d.answers / 3) * 1e4) / 1e4);
        expect(d.citationRateInterval).not.toBeNull();
        // A cited domain was read: its retrieval rate is at least its citation rate.
        expect(d.retrievalRate).toBeGreaterThanOrEqual(d.citationRate as number);
      }
    }
    // Naver's AI briefing says neither: null, never zero.
    const naver = series.find((x) => x.engine === 'SEARCH_B_AI_BRIEF') as Point;
    expect(naver.searchRate).toBeNull();
    expect(naver.counts.searchKnown).toBe(0);
    expect(naver.topRetrievedDomains).toEqual([]);
    for (const d of naver.topCitedDomains) expect(d.retrievalRate).toBeNull();

    // The CSV has the new figures as rows, each with its interval.
    const csv = await fetch(`${svc.url}/v1/monitors/${id}/metrics.csv`, {
      headers: { authorization: `Bearer ${TEST_KEY}` },
    });
    const lines = (await csv.text()).trim().split(/\r?\n/);
    const searchRows = lines.filter((l) => l.includes(',search_rate,'));
    expect(searchRows).toHaveLength(3);
    // One row per point; the engine that does not say has an empty value, not a zero.
    expect(searchRows.find((l) => l.includes(',SEARCH_B_AI_BRIEF,'))?.split(',')[7]).toBe('');
    expect(searchRows.find((l) => l.includes(',CHATBOT_A,'))?.split(',')[7]).toBe('0.6667');
    expect(lines.some((l) => l.includes(',domain_retrieval_rate,example.net,'))).toBe(true);
    expect(lines.some((l) => l.includes(',domain_citation_rate,'))).toBe(true);

    // The run keeps each answer's signals where its engine said them.
    const run = (await svc.call('GET', `/v1/monitors/${id}/runs?include=results`)).body.runs[0];
    const results = run.results as Array<{
      engine: string;
      prompt: string;
      searchTriggered?: boolean;
      searchQueries?: string[];
      retrieved?: string[];
    }>;
    const memory = results.find((r) => r.engine === 'CHATBOT_A' && r.prompt.includes('nosearch'));
    expect(memory?.searchTriggered).toBe(false);
    const searched = results.find((r) => r.engine === 'CHATBOT_A' && r.prompt === prompts[0]);
    expect(searched?.searchTriggered).toBe(true);
    expect(searched?.searchQueries).toEqual([prompts[0]]);
    expect(searched?.retrieved?.some((u) => u.includes('example.net'))).toBe(true);
    const page = results.find((r) => r.engine === 'SEARCH_B_AI_BRIEF');
    expect(page && 'searchTriggered' in page).toBe(false);
  }, 90_000);
});

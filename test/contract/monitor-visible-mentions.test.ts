import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, startService, steppedClock, tempDir, type RunningService } from '../helpers/service.js';
import { runMonitorToEnd } from '../helpers/monitors.js';

/**
 * A monitor's figures count what a reader sees (docs/analysis.md §6.1): on a results page the sandbox's result URLs
 * carry the prompt as a slug (`https://host/brooks-vs-hoka/1`), and the brands in them are not mentions; those in
 * the titles and snippets are. Seen through the API: each saved result's mentions and the run's figures.
 */
describe('monitor mentions leave addresses out', () => {
  const clock = steppedClock(Date.UTC(2026, 10, 20, 9));
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()) }, { clock });
  });
  afterAll(() => svc.stop());

  it('counts brands in titles and snippets, never inside result URLs', async () => {
    const created = await svc.call('POST', '/v1/monitors', {
      name: 'trainers',
      prompts: ['brooks vs hoka'],
      engines: ['SEARCH_A'],
      brand: { name: 'Brooks' },
      competitors: [{ name: 'Hoka' }],
    });
    expect(created.status).toBe(201);
    const id = created.body.monitor.id;
    await runMonitorToEnd(svc, id);
    const [run] = (await svc.call('GET', `/v1/monitors/${id}/runs?include=results`)).body.runs;
    const [result] = run.results;
    expect(result.status).toBe('COMPLETED');
    const text: string = result.text;
    const urls = [...text.matchAll(/https?:\/\/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
    // The page's addresses do name both brands: a count over the raw text would take them in.
    expect(urls.filter((u) => /brooks/i.test(text.slice(u.start, u.end))).length).toBeGreaterThan(0);
    const inUrl = (m: { start: number }) => urls.some((u) => m.start >= u.start && m.start < u.end);
    const mentions = result.mentions as Array<{ start: number; end: number; brand: string }>;
    expect(mentions.filter(inUrl)).toEqual([]);
    // Every visible occurrence counts: the text without its addresses names each brand as often as the mentions say.
    const visible = text.replace(/https?:\/\/\S+/g, (u) => ' '.repeat(u.length));
    for (const brand of ['Brooks', 'Hoka']) {
      const seen = (visible.match(new RegExp(`\\b${brand}\\b`, 'gi')) ?? []).length;
      expect(seen).toBeGreaterThan(0);
      expect(mentions.filter((m) => m.brand === brand)).toHaveLength(seen);
    }
    const [point] = (await svc.call('GET', `/v1/monitors/${id}/metrics`)).body.series;
    const brands = Object.fromEntries(
      (point.brands as Array<{ name: string; mentions: number }>).map((b) => [b.name, b.mentions]),
    );
    expect(brands).toEqual({
      Brooks: mentions.filter((m) => m.brand === 'Brooks').length,
      Hoka: mentions.filter((m) => m.brand === 'Hoka').length,
    });
    expect(point.mentionRate).toBe(1);
    expect(point.counts.allBrandMentions).toBe(mentions.length);
  });
});

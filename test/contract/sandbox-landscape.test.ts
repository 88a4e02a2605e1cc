import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastConfig, runTask, startService, steppedClock, tempDir, type RunningService } from '../helpers/service.js';
import { runMonitorToEnd } from '../helpers/monitors.js';

const DAY = 86_400_000;
const ENGINES = ['CHATBOT_A', 'ANSWER_ENGINE_A', 'ASSISTANT_A', 'AIMODE'];
const PROMPTS = [
  'best running shoes for flat feet',
  'running shoes for beginners',
  'trail running shoes for wet rocks',
  'cushioned running shoes for long runs',
  'running shoes for wide feet',
  'lightweight running shoes for racing',
];
/** Every brand of the sandbox's running-shoe market, with its own site. */
const MARKET_SITES = [
  'nike.com',
  'adidas.com',
  'hoka.com',
  'brooksrunning.com',
  'asics.com',
  'newbalance.com',
  'saucony.com',
];

interface Point {
  runId: string;
  slotAt: string;
  engine: string;
  country: string;
  mentionRate: number;
  shareOfVoice: number;
  avgFirstMentionPosition: number | null;
  topCitedDomains: Array<{ domain: string }>;
  counts: { answers: number };
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const distinct = (xs: unknown[]) => new Set(xs.map((x) => JSON.stringify(x))).size;

/**
 * The sandbox's engines differ as real ones do: which brands an answer names, in which order, and which sites it
 * cites are seeded per engine, country, day and ask, so a monitor's lines part, move a little from day to day, and
 * move a lot where `sandbox:shift` says a brand's visibility changes. Monitors are run by hand on a stepped clock
 * (the simulator runs in the service's process and reads the same clock), paused so that no scheduled run mixes in.
 */
describe('a sandbox whose engines differ', () => {
  const clock = steppedClock(Date.UTC(2026, 10, 20, 10));
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()) }, { clock });
  });
  afterAll(() => svc.stop());

  const create = async (body: Record<string, unknown>) => {
    const r = await svc.call('POST', '/v1/monitors', {
      engines: ENGINES,
      countries: ['US'],
      brand: { name: 'Hoka', aliases: ['호카'], domains: ['hoka.com'] },
      competitors: [
        { name: 'Nike', aliases: ['나이키'], domains: ['nike.com'] },
        { name: 'Brooks', aliases: ['브룩스'] },
        { name: 'Asics', aliases: ['아식스'] },
      ],
      ...body,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = r.body.monitor.id as string;
    expect((await svc.call('PATCH', `/v1/monitors/${id}`, { status: 'paused' })).status).toBe(200);
    return id;
  };
  const runNow = (id: string) => runMonitorToEnd(svc, id);
  const series = async (id: string): Promise<Point[]> =>
    (await svc.call('GET', `/v1/monitors/${id}/metrics`)).body.series;

  it('gives each engine its own mention rate, share of voice, positions and sources', async () => {
    const id = await create({ name: 'engines differ', prompts: PROMPTS });
    await runNow(id);
    const points = await series(id);
    expect(points.map((p) => p.engine).sort()).toEqual([...ENGINES].sort());
    for (const p of points) expect(p.counts.answers).toBe(PROMPTS.length);
    // Four engines, four lines: no figure is the same on every engine.
    expect(distinct(points.map((p) => p.mentionRate))).toBeGreaterThanOrEqual(3);
    expect(distinct(points.map((p) => p.shareOfVoice))).toBeGreaterThanOrEqual(2);
    expect(distinct(points.map((p) => p.avgFirstMentionPosition))).toBeGreaterThanOrEqual(2);
    expect(distinct(points.map((p) => p.topCitedDomains.slice(0, 3).map((d) => d.domain)))).toBe(ENGINES.length);
    // Some answers link the brand they name first to its own site.
    const domains = points.flatMap((p) => p.topCitedDomains.map((d) => d.domain));
    expect(domains.some((d) => MARKET_SITES.includes(d))).toBe(true);

    // A second ask the same day (a minute on: one run per slot) is another sample: some answers differ.
    clock.advance(60_000);
    await runNow(id);
    const [first, second] = [points, (await series(id)).filter((p) => !points.some((q) => q.runId === p.runId))];
    expect(second).toHaveLength(ENGINES.length);
    const figures = (ps: Point[]) =>
      [...ps].sort((a, b) => (a.engine < b.engine ? -1 : 1)).map((p) => [p.mentionRate, p.shareOfVoice]);
    expect(figures(second)).not.toEqual(figures(first));
  });

  it('moves a little from day to day, and a lot on the engine and from the day a shift says', async () => {
    // Hoka on ASSISTANT_A, rarely named before, 60 points more likely from the fourth day.
    const shifted = PROMPTS.map((p) => `${p} sandbox:shift=hoka:+60@2026-11-24:ASSISTANT_A`);
    const id = await create({ name: 'a change', prompts: shifted, engines: ['ASSISTANT_A', 'ANSWER_ENGINE_A'] });
    clock.advance(DAY); // 2026-11-21T10:00Z
    for (let day = 0; day < 6; day++) {
      await runNow(id);
      clock.advance(DAY);
    }
    const points = await series(id);
    expect(points).toHaveLength(12);
    const rates = (engine: string, after: boolean) =>
      points.filter((p) => p.engine === engine && p.slotAt >= '2026-11-24' === after).map((p) => p.mentionRate);
    const [before, from] = [rates('ASSISTANT_A', false), rates('ASSISTANT_A', true)];
    expect(before).toHaveLength(3);
    expect(mean(from) - mean(before)).toBeGreaterThanOrEqual(0.4);
    for (const r of from) expect(r).toBeGreaterThan(Math.max(...before));
    // The other engine has no shift: its days differ, but no more than samples of six answers do.
    const other = [rates('ANSWER_ENGINE_A', false), rates('ANSWER_ENGINE_A', true)];
    expect(Math.abs(mean(other[1] ?? []) - mean(other[0] ?? []))).toBeLessThan(0.25);
    expect(distinct(points.filter((p) => p.engine === 'ANSWER_ENGINE_A').map((p) => p.shareOfVoice))).toBeGreaterThan(
      1,
    );
    // The change is a signal, first seen on the shift's day, with the prompts that moved (docs/analysis.md §6.7).
    const signals = (await svc.call('GET', `/v1/monitors/${id}/signals`)).body;
    expect(signals.fdr).toBe(0.05);
    const rise = (signals.signals as any[]).find(
      (s) => s.engine === 'ASSISTANT_A' && s.brand === 'Hoka' && s.figure === 'mentionRate',
    );
    expect(rise).toMatchObject({ direction: 'up', role: 'brand' });
    expect(rise.firstSeen.slotAt.slice(0, 10)).toBe('2026-11-24');
    expect(rise.after - rise.before).toBeGreaterThanOrEqual(0.3);
    expect(rise.qValue).toBeLessThanOrEqual(0.05);
    expect(rise.prompts.length).toBeGreaterThan(0);
    // The prompts by their text (the stored figures keep each prompt's index).
    for (const p of rise.prompts) expect(shifted).toContain(p.prompt);
    // Asked from a day after the change ended, there is nothing to list.
    const later = (await svc.call('GET', `/v1/monitors/${id}/signals?from=2026-12-20T00:00:00Z`)).body;
    expect(later.signals).toEqual([]);
    // The directive is part of the prompt, never of the answer.
    const run = (await svc.call('GET', `/v1/monitors/${id}/runs?limit=1&include=results`)).body.runs[0];
    for (const r of run.results as Array<{ prompt: string; text: string }>) {
      expect(r.prompt).toContain('sandbox:shift=hoka:+60@2026-11-24:ASSISTANT_A');
      expect(r.text).not.toContain('sandbox:');
    }
  }, 120_000);

  it('names the brands a Korean answer names, in Korean, for a Korean monitor', async () => {
    const id = await create({
      name: '러닝화',
      prompts: ['러닝화 추천', '초보자용 러닝화', '평발 러닝화'],
      engines: ['CHATBOT_A', 'SEARCH_B_AI_BRIEF', 'SEARCH_B_AI_TAB'],
      countries: ['KR'],
    });
    await runNow(id);
    const points = await series(id);
    expect(points.map((p) => p.engine).sort()).toEqual(['CHATBOT_A', 'SEARCH_B_AI_BRIEF', 'SEARCH_B_AI_TAB']);
    for (const p of points) expect(p.country).toBe('KR');
    // Named through the Korean aliases, and not alike on every engine.
    expect(points.some((p) => p.mentionRate > 0)).toBe(true);
    expect(distinct(points.map((p) => [p.mentionRate, p.shareOfVoice]))).toBeGreaterThan(1);
    const run = (await svc.call('GET', `/v1/monitors/${id}/runs?limit=1&include=results`)).body.runs[0];
    expect(JSON.stringify(run.results)).toMatch(/많이 추천되는 브랜드로는 [가-힣]+/);
  });

  it('leaves answers to a prompt of no market as they were: no brands named, the same each ask', async () => {
    const ask = () => runTask(svc, { taskType: 'ANSWER_ENGINE_A', payload: { prompt: 'how to descale a kettle' } });
    const [a, b] = [await ask(), await ask()];
    expect(a.response.text).toBe(b.response.text);
    expect(a.response.text).not.toMatch(/Popular picks|Reviewers most often|Many buyers/);
  });
});

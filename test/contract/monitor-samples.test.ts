import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorScheduler } from '../../src/queue/monitor-scheduler.js';
import { METRICS_CSV_COLUMNS } from '../../src/queue/monitor-metrics.js';
import { fastConfig, startService, steppedClock, tempDir, TEST_KEY, type RunningService } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

const PROMPTS = [
  'best running shoes for flat feet',
  'running shoes for beginners',
  'trail running shoes for wet rocks',
  'cushioned running shoes for long runs',
];
const SPACING_S = 300;
const INTERNAL = 'internal-token-for-samples-0123';

interface Interval {
  low: number;
  high: number;
}

/**
 * Samples: a monitor asks each prompt `samples` times per engine and country, the later samples due one spacing
 * apart (AEQ_MONITOR_SAMPLE_SPACING_SECONDS), and the bound of 200 counts them. The figures carry 95% intervals in
 * the JSON series and the CSV export. The clock is stepped: sample 1 is not asked before the clock reaches its time.
 */
describe('monitor samples and intervals', () => {
  const start = Date.UTC(2026, 10, 20, 10);
  const clock = steppedClock(start);
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startService(
      {
        AEQ_CONFIG: fastConfig(tempDir()),
        AEQ_MONITOR_SAMPLE_SPACING_SECONDS: String(SPACING_S),
        AEQ_INTERNAL_TOKEN: INTERNAL,
      },
      { clock },
    );
  });
  afterAll(() => svc.stop());

  const create = (extra: Record<string, unknown>) =>
    svc.call('POST', '/v1/monitors', {
      name: 'samples',
      prompts: PROMPTS,
      engines: ['CHATBOT_A', 'ANSWER_ENGINE_A'],
      countries: ['US'],
      brand: { name: 'Hoka', domains: ['hoka.com'] },
      competitors: [{ name: 'Nike', domains: ['nike.com'] }, { name: 'Brooks' }, { name: 'Asics' }],
      ...extra,
    });
  const runs = async (id: string): Promise<any[]> =>
    (await svc.call('GET', `/v1/monitors/${id}/runs?limit=1&include=results`)).body.runs;

  it('takes samples from 1 to 10 and counts them in the bound of 200', async () => {
    const one = await create({});
    expect(one.status).toBe(201);
    expect(one.body.monitor).toMatchObject({ samples: 1, tasksPerRun: 8 });
    for (const samples of [0, 11, 2.5, '3'])
      expect((await create({ samples })).body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    // 25 prompts × 2 engines × 4 samples = 200 is allowed; × 5 samples = 250 is not, and says which member.
    const many = Array.from({ length: 25 }, (_, i) => `running shoe question ${i}`);
    expect((await create({ prompts: many, samples: 4 })).status).toBe(201);
    const over = await create({ prompts: many, samples: 5 });
    expect(over.status).toBe(422);
    expect(over.body.error.details[0]).toMatchObject({ field: 'samples' });
    expect(over.body.error.message).toContain('250');
    // An edit that sets samples is checked the same way.
    const edited = await svc.call('PATCH', `/v1/monitors/${one.body.monitor.id}`, { samples: 3 });
    expect(edited.body.monitor).toMatchObject({ samples: 3, tasksPerRun: 24 });
  });

  it('asks each prompt per engine that many times, the later samples a spacing apart, with intervals', async () => {
    const m = (await create({ samples: 3 })).body.monitor as { id: string };
    expect((await svc.call('POST', `/v1/monitors/${m.id}/runs`)).status).toBe(202);
    const scheduler = svc.app.monitors as MonitorScheduler;
    const progress = async () => {
      await scheduler.runOnce();
      return (await runs(m.id))[0].progress as { total: number; done: number };
    };
    // Sample 0 of every prompt and engine is asked now; samples 1 and 2 wait for their time.
    const first = await until('sample 0 done', progress, (p) => p.done >= 8, 30_000, 50);
    expect(first.total).toBe(24);
    await new Promise((r) => setTimeout(r, 500));
    expect((await progress()).done).toBe(8);
    clock.advance(SPACING_S * 1000);
    await until('sample 1 done', progress, (p) => p.done >= 16, 30_000, 50);
    expect((await progress()).done).toBe(16);
    clock.advance(SPACING_S * 1000);
    await until(
      'the run completed',
      async () => {
        await scheduler.runOnce();
        return runs(m.id);
      },
      (rs) => rs[0]?.status === 'completed',
      30_000,
      50,
    );
    const [run] = await runs(m.id);
    expect(run.progress).toEqual({ total: 24, done: 24, completed: 24, failed: 0 });
    // Each prompt and engine has samples 0, 1 and 2.
    const cells = new Map<string, number[]>();
    for (const r of run.results as Array<{ prompt: string; engine: string; sample: number }>)
      cells.set(`${r.prompt}|${r.engine}`, [...(cells.get(`${r.prompt}|${r.engine}`) ?? []), r.sample].sort());
    expect(cells.size).toBe(8);
    for (const s of cells.values()) expect(s).toEqual([0, 1, 2]);

    const series = (await svc.call('GET', `/v1/monitors/${m.id}/metrics`)).body.series as any[];
    expect(series).toHaveLength(2);
    for (const p of series) {
      expect(p.methodVersion).toBe('visibility/1.3.0');
      expect(p.counts).toMatchObject({ answers: 12, prompts: 4 });
      // The effective size lies between the prompts (samples alike) and the answers (samples independent).
      expect(p.counts.effectiveAnswers).toBeGreaterThanOrEqual(4);
      expect(p.counts.effectiveAnswers).toBeLessThanOrEqual(12);
      expect(p.intervals.level).toBe(0.95);
      // The per-prompt breakdown the signals read stays in the store: the series does not carry it.
      expect(p.byPrompt).toBeUndefined();
      for (const [figure, interval] of [
        ['mentionRate', p.intervals.mentionRate],
        ['shareOfVoice', p.intervals.shareOfVoice],
        ['ownCitationShare', p.intervals.ownCitationShare],
      ] as Array<[string, Interval | null]>) {
        if (p[figure] === null) continue;
        expect(interval, figure).not.toBeNull();
        expect(interval?.low).toBeLessThanOrEqual(p[figure]);
        expect(interval?.high).toBeGreaterThanOrEqual(p[figure]);
        expect(interval?.low).toBeGreaterThanOrEqual(0);
        expect(interval?.high).toBeLessThanOrEqual(1);
      }
      for (const b of p.brands)
        expect(Object.keys(b.intervals).sort()).toEqual([
          'avgFirstMentionPosition',
          'citationShare',
          'mentionRate',
          'shareOfVoice',
        ]);
      for (const d of p.topCitedDomains) {
        expect(d.shareInterval.low).toBeLessThanOrEqual(d.share);
        expect(d.shareInterval.high).toBeGreaterThanOrEqual(d.share);
      }
    }

    // The CSV: one row per brand figure and per listed domain, with the same values and bounds as the JSON.
    const res = await fetch(`${svc.url}/v1/monitors/${m.id}/metrics.csv`, {
      headers: { authorization: `Bearer ${TEST_KEY}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).trim().split(/\r?\n/);
    expect(lines[0]).toBe(METRICS_CSV_COLUMNS.join(','));
    // Per point: 4 figures per brand, each cited domain's share and rate, each read domain's rate, the search rate.
    const expected = series.reduce(
      (s, p) => s + p.brands.length * 4 + p.topCitedDomains.length * 2 + p.topRetrievedDomains.length + 1,
      0,
    );
    expect(lines).toHaveLength(1 + expected);
    const p0 = series[0];
    const row = lines.find((l) => l.includes(`,${p0.engine},US,mention_rate,Hoka,brand,`));
    expect(row?.split(',').slice(7, 12)).toEqual([
      String(p0.mentionRate),
      String(p0.intervals.mentionRate.low),
      String(p0.intervals.mentionRate.high),
      '12',
      '4',
    ]);
  });

  it("is the caller's own: another account's key gets 404 for the CSV as for the JSON", async () => {
    const m = (await create({})).body.monitor as { id: string };
    const internal = { authorization: `Bearer ${INTERNAL}` };
    expect((await svc.call('POST', '/internal/accounts', { name: 'globex' }, internal)).status).toBe(201);
    const key = (await svc.call('POST', '/internal/keys', { account: 'globex' }, internal)).body.key as string;
    for (const path of [`/v1/monitors/${m.id}/metrics`, `/v1/monitors/${m.id}/metrics.csv`]) {
      const r = await svc.raw('GET', path, undefined, { authorization: `Bearer ${key}` });
      expect(r.status, path).toBe(404);
      expect(r.body.error.code).toBe('RESOURCE_NOT_FOUND');
      expect((await svc.raw('GET', path)).status, path).toBe(401);
    }
  });
});

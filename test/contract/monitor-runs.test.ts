import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitorScheduler } from '../../src/queue/monitor-scheduler.js';
import { createLogger } from '../../src/ops/logger.js';
import { fastConfig, startService, steppedClock, tempDir, type RunningService } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

const DAY = 86_400_000;

/**
 * Monitor runs: a due monitor runs once per scheduled time through the normal queue, whichever
 * process gets there; missed slots collapse into one run; a finished run keeps its answers and its visibility
 * figures per engine and country, which the metrics series returns. The clock is stepped, never slept.
 */
describe('monitor runs on a schedule', () => {
  const clock = steppedClock(Date.UTC(2026, 10, 20, 10));
  let svc: RunningService;
  let monitorId = '';
  const stuckIds: string[] = [];

  beforeAll(async () => {
    // AIMODE never starts a task here: its monitors' runs wait (and must not hide the runs that can end).
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir(), { paused: ['AIMODE'] }) }, { clock });
    for (let i = 0; i < 21; i++) {
      const stuck = await svc.call('POST', '/v1/monitors', {
        name: `waiting ${i}`,
        prompts: ['is Nike good for running'],
        engines: ['AIMODE'],
        brand: { name: 'Nike' },
      });
      stuckIds.push(stuck.body.monitor.id);
    }
    const r = await svc.call('POST', '/v1/monitors', {
      name: 'shoes',
      prompts: ['is Nike good for running', 'Adidas or Nike for trail running'],
      engines: ['ANSWER_ENGINE_A', 'CHATBOT_A'],
      countries: ['US'],
      brand: { name: 'Nike', domains: ['nike.com'] },
      competitors: [{ name: 'Adidas' }],
    });
    expect(r.status).toBe(201);
    monitorId = r.body.monitor.id;
    expect(r.body.monitor.schedule.nextRunAt).toBe('2026-11-21T00:00:00.000Z');
  });
  afterAll(() => svc.stop());

  const scheduler = () => svc.app.monitors as MonitorScheduler;
  /** A whole pass at the clock's present time (the service's own timer may be in a pass begun before a step). */
  const pass = async () => {
    await scheduler().runOnce();
    await scheduler().runOnce();
  };
  const runs = async (include = false): Promise<any[]> =>
    (await svc.call('GET', `/v1/monitors/${monitorId}/runs?limit=100${include ? '&include=results' : ''}`)).body.runs;
  /** Passes of the scheduler until every run has completed (the worker runs the tasks meanwhile). */
  const finishRuns = () =>
    until(
      'every run completed',
      async () => {
        await pass();
        return runs();
      },
      (rs) => (rs as Array<{ status: string }>).every((r) => r.status === 'completed'),
      30_000,
      100,
    );

  it('does nothing before the first scheduled time', async () => {
    await pass();
    expect(await runs()).toEqual([]);
  });

  it('runs a due slot through the queue and keeps its answers and figures', async () => {
    clock.advance(14 * 3600_000 + 30_000); // 2026-11-21T00:00:30Z
    // 22 monitors are due: a pass takes 20, the next the rest; 21 runs then wait on AIMODE.
    await pass();
    await pass();
    const started = await runs();
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ slotAt: '2026-11-21T00:00:00.000Z', tasks: 4, trigger: 'schedule' });
    const done = await finishRuns();
    expect(done[0].progress).toEqual({ total: 4, done: 4, completed: 4, failed: 0 });
    const [withResults] = await runs(true);
    expect(withResults.results).toHaveLength(4);
    for (const r of withResults.results) {
      expect(r.status).toBe('COMPLETED');
      expect(r.text).toContain(r.prompt);
      // Saved with the run: where the answer names each tracked brand, as the figures counted it.
      expect(r.mentions.length).toBeGreaterThan(0);
      for (const m of r.mentions) {
        expect(r.text.slice(m.start, m.end)).toBe(m.brand);
        expect(m.role).toBe(m.brand === 'Nike' ? 'brand' : 'competitor');
      }
      // Nike is named first unless the prompt (restated in the answer) names Adidas before it.
      expect(r.position).toBe(r.prompt.startsWith('Adidas') ? 2 : 1);
    }
    const monitor = (await svc.call('GET', `/v1/monitors/${monitorId}`)).body.monitor;
    expect(monitor.schedule.nextRunAt).toBe('2026-11-22T00:00:00.000Z');

    const metrics = await svc.call('GET', `/v1/monitors/${monitorId}/metrics`);
    expect(metrics.status).toBe(200);
    const series = metrics.body.series as Array<Record<string, unknown>>;
    expect(series.map((s) => `${s.engine}/${s.country}`).sort()).toEqual(['ANSWER_ENGINE_A/US', 'CHATBOT_A/US']);
    for (const s of series) {
      // Both prompts name Nike and the sandbox's answers restate the prompt: every answer mentions the brand.
      expect(s.mentionRate).toBe(1);
      expect(s.counts).toMatchObject({ answers: 2, failed: 0 });
      expect(typeof s.shareOfVoice).toBe('number');
      expect(s.methodVersion).toBe('visibility/1.3.0');
    }
  });

  it('runs a slot once when two schedulers (two worker processes) reach it together', async () => {
    clock.advance(DAY); // 2026-11-22T00:00:30Z
    const other = new MonitorScheduler(
      svc.app.store,
      { config: svc.app.config, pools: svc.app.pools, now: () => clock.now() },
      { retentionMs: DAY, runRetentionMs: 400 * DAY, sampleSpacingMs: 0 },
      createLogger('silent'),
      clock,
    );
    await Promise.all([pass(), other.runOnce(), other.runOnce()]);
    await finishRuns();
    const all = await runs();
    expect(all.map((r: { slotAt: string }) => r.slotAt)).toEqual([
      '2026-11-22T00:00:00.000Z',
      '2026-11-21T00:00:00.000Z',
    ]);
    // And its tasks once: four, each answered once.
    expect(all[0].progress).toEqual({ total: 4, done: 4, completed: 4, failed: 0 });
  });

  it('runs once for slots missed while down, and not while paused', async () => {
    clock.advance(3 * DAY + 3600_000); // 2026-11-25T01:00:30Z: the 23rd, 24th and 25th were missed
    await pass();
    await finishRuns();
    const all = await runs();
    expect(all).toHaveLength(3);
    expect(all[0].slotAt).toBe('2026-11-25T00:00:00.000Z');
    const series = (await svc.call('GET', `/v1/monitors/${monitorId}/metrics?from=2026-11-22T00:00:00Z`)).body.series;
    expect(series.map((s: { slotAt: string }) => s.slotAt)).toEqual([
      '2026-11-22T00:00:00.000Z',
      '2026-11-22T00:00:00.000Z',
      '2026-11-25T00:00:00.000Z',
      '2026-11-25T00:00:00.000Z',
    ]);

    await svc.call('PATCH', `/v1/monitors/${monitorId}`, { status: 'paused' });
    clock.advance(2 * DAY);
    await pass();
    expect(await runs()).toHaveLength(3);
    // Meanwhile the waiting monitors' first runs were ended with what they had before their tasks' retention.
    const waiting = (await svc.call('GET', `/v1/monitors/${stuckIds[0]}/runs`)).body.runs;
    expect(waiting.at(-1)).toMatchObject({
      slotAt: '2026-11-21T00:00:00.000Z',
      status: 'completed',
      progress: { total: 1, done: 0 },
    });
  });

  it('runs what the monitor said when its slot was taken: an edit during a run changes the next one', async () => {
    const [last] = await runs();
    await svc.call('PATCH', `/v1/monitors/${monitorId}`, { status: 'active' });
    clock.advance(DAY); // the next slot after the resume
    // Its run: a pass claims at most 20 of the 22 monitors due, and its first half may join a pass the service's timer
    // began before the step, so the run can take one more pass to start.
    const [started] = await until(
      'the run of the next slot started',
      async () => {
        await pass();
        return runs();
      },
      (rs) => rs[0]?.id !== last?.id,
      10_000,
      50,
    );
    await svc.call('PATCH', `/v1/monitors/${monitorId}`, { prompts: ['a third prompt only'], engines: ['CHATBOT_A'] });
    await finishRuns();
    const [done] = await runs(true);
    expect(done.id).toBe(started.id);
    expect(done.progress).toMatchObject({ total: 4, done: 4 });
    expect(new Set(done.results.map((r: { prompt: string }) => r.prompt))).toEqual(
      new Set(['is Nike good for running', 'Adidas or Nike for trail running']),
    );
  });
});

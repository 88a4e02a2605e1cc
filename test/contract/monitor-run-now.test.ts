import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorScheduler } from '../../src/queue/monitor-scheduler.js';
import { fastConfig, startService, steppedClock, tempDir, type RunningService } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

/**
 * Run now: `POST /v1/monitors/{id}/runs` starts a run at once, made and submitted as a scheduled one (its tasks go
 * through the normal queue, count in the account's usage and end with their figures), without moving the schedule;
 * a second start while a run is open is refused with 409 MONITOR_RUN_IN_PROGRESS, also when two come at once; a
 * paused monitor runs by hand and stays paused. The clock is stepped, never slept.
 */
describe('run a monitor now', () => {
  const start = Date.UTC(2026, 10, 20, 10, 15);
  const clock = steppedClock(start);
  let svc: RunningService;

  beforeAll(async () => {
    // AIMODE never starts a task here: a run on it stays open.
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir(), { paused: ['AIMODE'] }) }, { clock });
  });
  afterAll(() => svc.stop());

  const create = async (engines: string[], extra: Record<string, unknown> = {}) => {
    const r = await svc.call('POST', '/v1/monitors', {
      name: 'run now',
      prompts: ['is Nike good for running', 'Adidas or Nike for trail running'],
      engines,
      countries: ['US'],
      brand: { name: 'Nike' },
      competitors: [{ name: 'Adidas' }],
      ...extra,
    });
    expect(r.status).toBe(201);
    return r.body.monitor as { id: string; schedule: { nextRunAt: string | null } };
  };
  const runNow = (id: string) => svc.call('POST', `/v1/monitors/${id}/runs`);
  const runs = async (id: string): Promise<any[]> =>
    (await svc.call('GET', `/v1/monitors/${id}/runs?limit=10`)).body.runs;

  it('starts a run at once through the queue, counted in usage, and leaves the schedule alone', async () => {
    const m = await create(['ANSWER_ENGINE_A', 'CHATBOT_A']);
    const r = await runNow(m.id);
    expect(r.status).toBe(202);
    expect(r.body.run).toMatchObject({
      status: 'running',
      trigger: 'manual',
      tasks: 4,
      slotAt: new Date(start).toISOString(),
      completedAt: null,
    });
    expect(r.body.run.progress.total).toBe(4);
    const scheduler = svc.app.monitors as MonitorScheduler;
    const [done] = await until(
      'the run completed',
      async () => {
        await scheduler.runOnce();
        return runs(m.id);
      },
      (rs) => (rs as Array<{ status: string }>)[0]?.status === 'completed',
      30_000,
      100,
    );
    expect(done).toMatchObject({ id: r.body.run.id, trigger: 'manual' });
    expect(done.progress).toEqual({ total: 4, done: 4, completed: 4, failed: 0 });
    const series = (await svc.call('GET', `/v1/monitors/${m.id}/metrics`)).body.series;
    expect(series.map((s: { engine: string }) => s.engine).sort()).toEqual(['ANSWER_ENGINE_A', 'CHATBOT_A']);
    for (const s of series) expect(s.mentionRate).toBe(1);
    // The schedule did not move: the next slot is still the next midnight.
    const after = (await svc.call('GET', `/v1/monitors/${m.id}`)).body.monitor;
    expect(after.schedule.nextRunAt).toBe(m.schedule.nextRunAt);
    expect(after.schedule.nextRunAt).toBe('2026-11-21T00:00:00.000Z');
    // Its tasks count as any other: four tasks today on the two engines.
    const usage = (await svc.call('GET', '/v1/usage?from=2026-11-20&to=2026-11-20')).body;
    const byEngine = Object.fromEntries(
      (usage.usage as Array<{ engine: string; tasks: number }>).map((u) => [u.engine, u.tasks]),
    );
    expect(byEngine).toMatchObject({ ANSWER_ENGINE_A: 2, CHATBOT_A: 2 });
    // Once it has ended, another may start.
    clock.advance(60_000);
    expect((await runNow(m.id)).status).toBe(202);
  });

  it('refuses a second run while one is open, also when two are asked at once', async () => {
    const m = await create(['AIMODE']);
    const both = await Promise.all([runNow(m.id), runNow(m.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    const refused = both.find((r) => r.status === 409);
    expect(refused?.body.error.code).toBe('MONITOR_RUN_IN_PROGRESS');
    expect(refused?.body.error.details).toEqual({ monitorId: m.id });
    clock.advance(1000);
    const again = await runNow(m.id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('MONITOR_RUN_IN_PROGRESS');
    expect(await runs(m.id)).toHaveLength(1);
  });

  it('runs a paused monitor by hand; it stays paused', async () => {
    const m = await create(['ANSWER_ENGINE_A']);
    const paused = await svc.call('PATCH', `/v1/monitors/${m.id}`, { status: 'paused' });
    expect(paused.body.monitor.schedule.nextRunAt).toBeNull();
    const r = await runNow(m.id);
    expect(r.status).toBe(202);
    expect(r.body.run.tasks).toBe(2);
    const after = (await svc.call('GET', `/v1/monitors/${m.id}`)).body.monitor;
    expect(after).toMatchObject({ status: 'paused', schedule: { nextRunAt: null } });
  });

  it('answers 404 for an unknown monitor and 401 without a key', async () => {
    const unknown = await runNow('00000000-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
    const m = await create(['ANSWER_ENGINE_A']);
    const anon = await svc.call('POST', `/v1/monitors/${m.id}/runs`, undefined, { authorization: '' });
    expect(anon.status).toBe(401);
  });
});

import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countSavedResults } from '../../src/store/migrations/018-monitor-run-counts.js';
import { fastConfig, startService, steppedClock, tempDir, type RunningService } from '../helpers/service.js';
import { until } from '../helpers/wait.js';

/**
 * A run of more than 500 tasks keeps every answer (its end reads the batch's finished tasks in one query; it read
 * them one by one from the first 500 items before), and the list of runs gives each completed run's progress from
 * the counts saved with it, without reading its answers (migration 016, which also counts runs completed before
 * it). 84 prompts × 2 engines × 3 countries = 504 tasks. The clock is stepped, never slept.
 */
describe('monitor runs: every answer of a large run, progress without the answers', () => {
  const clock = steppedClock(Date.UTC(2026, 10, 20, 10));
  let svc: RunningService;
  let monitorId = '';
  const prompts = Array.from({ length: 84 }, (_, i) => `Nike or Adidas for running, question ${i + 1}`);

  beforeAll(async () => {
    svc = await startService({ AEQ_CONFIG: fastConfig(tempDir()) }, { clock });
    const r = await svc.call('POST', '/v1/monitors', {
      name: 'large',
      prompts,
      engines: ['ASSISTANT_A', 'ANSWER_ENGINE_A'],
      countries: ['US', 'GB', 'DE'],
      brand: { name: 'Nike' },
      competitors: [{ name: 'Adidas' }],
    });
    expect(r.status).toBe(201);
    expect(r.body.monitor.tasksPerRun).toBe(504);
    monitorId = r.body.monitor.id;
  });
  afterAll(() => svc.stop());

  const runs = async (query = ''): Promise<any[]> =>
    (await svc.call('GET', `/v1/monitors/${monitorId}/runs${query}`)).body.runs;

  it('saves all 504 answers of a run and lists its progress from their counts', async () => {
    clock.advance(14 * 3600_000 + 30_000); // past the slot of 2026-11-21T00:00Z
    const scheduler = svc.app.monitors!;
    const [done] = await until(
      'the run completed',
      async () => {
        await scheduler.runOnce();
        await svc.app.batches!.runOnce();
        await scheduler.runOnce();
        return runs();
      },
      (rs) => rs[0]?.status === 'completed',
      120_000,
      100,
    );
    expect(done.progress).toEqual({ total: 504, done: 504, completed: 504, failed: 0 });
    expect(done.results).toBeUndefined();

    const [withResults] = await runs('?include=results');
    expect(withResults.results).toHaveLength(504);
    expect(new Set(withResults.results.map((r: { taskId: string }) => r.taskId)).size).toBe(504);
    // The last prompt's six tasks are past the 500th item of the batch.
    const last = withResults.results.filter((r: { prompt: string }) => r.prompt === prompts.at(-1));
    expect(last.map((r: { engine: string; country: string }) => `${r.engine}/${r.country}`).sort()).toEqual([
      'ANSWER_ENGINE_A/DE',
      'ANSWER_ENGINE_A/GB',
      'ANSWER_ENGINE_A/US',
      'ASSISTANT_A/DE',
      'ASSISTANT_A/GB',
      'ASSISTANT_A/US',
    ]);
    const series = (await svc.call('GET', `/v1/monitors/${monitorId}/metrics`)).body.series;
    expect(series.reduce((n: number, s: { counts: { tasks: number } }) => n + s.counts.tasks, 0)).toBe(504);
  }, 150_000);

  it('counts the saved answers of a run completed before the counts were kept', async () => {
    const db = (svc.app.store as unknown as { db: Kysely<any> }).db;
    await db.updateTable('monitor_runs').set({ completed_tasks: null, failed_tasks: null }).execute();
    expect((await runs())[0].progress).toMatchObject({ done: 0 });
    await countSavedResults(db);
    expect((await runs())[0].progress).toEqual({ total: 504, done: 504, completed: 504, failed: 0 });
  });
});

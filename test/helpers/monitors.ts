import { expect } from 'vitest';
import type { MonitorScheduler } from '../../src/queue/monitor-scheduler.js';
import type { RunningService } from './service.js';
import { until } from './wait.js';

/**
 * Starts a run of monitor `id` now (POST …/runs, 202) and steps the service's scheduler until that run has completed
 * (the worker runs its tasks meanwhile): the clock is never slept on.
 */
export async function runMonitorToEnd(svc: RunningService, id: string, timeoutMs = 60_000): Promise<void> {
  expect((await svc.call('POST', `/v1/monitors/${id}/runs`)).status).toBe(202);
  const scheduler = svc.app.monitors as MonitorScheduler;
  await until(
    'the run completed',
    async () => {
      await scheduler.runOnce();
      return (await svc.call('GET', `/v1/monitors/${id}/runs?limit=1`)).body.runs;
    },
    (rs) => (rs as Array<{ status: string }>)[0]?.status === 'completed',
    timeoutMs,
    100,
  );
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from '../../src/app.js';
import { figure, type BenchConfig, type Integrity, type ScenarioResult } from '../figures.js';
import { percentile } from '../stats.js';
import { AUTH, NOOP_ENGINE, attemptLog, call, startBenchService } from '../service.js';

/** Tasks of the no-op engine that reached COMPLETED, from the service's own counter. */
export async function completedCount(app: App): Promise<number> {
  const m = await app.metrics.tasksFinished.get();
  return m.values.filter((v) => v.labels.status === 'COMPLETED').reduce((n, v) => n + v.value, 0);
}

export async function waitCompleted(app: App, n: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await completedCount(app)) < n) {
    if (Date.now() > deadline)
      throw new Error(`only ${await completedCount(app)} of ${n} tasks completed after ${timeoutMs} ms`);
    await sleep(5);
  }
}

/** Submits `n` no-op tasks in batches of 500, two batches in flight; bodies are built before timing starts. */
export async function submitAll(
  url: string,
  n: number,
  extra: Record<string, unknown> = {},
): Promise<() => Promise<number>> {
  const bodies: string[] = [];
  for (let start = 0; start < n; start += 500) {
    const size = Math.min(500, n - start);
    bodies.push(
      JSON.stringify(
        Array.from({ length: size }, (_, i) => ({
          taskType: NOOP_ENGINE,
          payload: { prompt: `dispatch ${start + i}` },
          ...extra,
        })),
      ),
    );
  }
  return async () => {
    let next = 0;
    let accepted = 0;
    const lane = async () => {
      for (let b = bodies[next++]; b !== undefined; b = bodies[next++]) {
        const res = await fetch(`${url}/v1/async/task/batch`, { method: 'POST', headers: AUTH, body: b });
        const body = (await res.json()) as { summary?: { succeeded: number } };
        accepted += body.summary?.succeeded ?? 0;
      }
    };
    await Promise.all([lane(), lane()]);
    return accepted;
  };
}

/** Dispatch with the no-op engine: N tasks from submit to COMPLETED, and the idle submit-to-start latency. */
export async function runDispatchScenario(
  cfg: BenchConfig,
  log: (s: string) => void,
  machineBaseline?: { name: string; value: number },
): Promise<ScenarioResult> {
  const rates: number[] = [];
  const latencies: number[] = [];
  const integrity: Integrity[] = [];
  for (let run = 0; run < cfg.dispatchRuns; run++) {
    const seen = attemptLog();
    const started = seen.started;
    const svc = await startBenchService({ noopConcurrency: cfg.noopConcurrency, seen });
    try {
      log(`dispatch run ${run + 1}/${cfg.dispatchRuns}: ${cfg.dispatchTasks} tasks`);
      const go = await submitAll(svc.url, cfg.dispatchTasks);
      const t0 = performance.now();
      const accepted = await go();
      await waitCompleted(svc.app, cfg.dispatchTasks, 120_000 + cfg.dispatchTasks * 5);
      const seconds = (performance.now() - t0) / 1000;
      rates.push(cfg.dispatchTasks / seconds);
      const stats = await svc.app.store.figures.stats({ notBefore: 0 });
      integrity.push({
        scenario: `dispatch run ${run + 1}`,
        expected: cfg.dispatchTasks,
        observed: stats.tasks.COMPLETED,
        failedRequests: cfg.dispatchTasks - accepted,
        lost: cfg.dispatchTasks - stats.tasks.COMPLETED,
        // Attempts beyond one per task (a no-op attempt never fails, so any extra one is a double run).
        duplicates: seen.calls - started.size,
      });
      if (run === 0) {
        // Idle workers: one task at a time, the next only once the previous one has finished.
        for (let i = 0; i < cfg.idleSamples; i++) {
          const done = await completedCount(svc.app);
          const t = performance.now();
          const r = await call(svc.url, 'POST', '/v1/async/task', {
            taskType: NOOP_ENGINE,
            payload: { prompt: `idle ${i}` },
          });
          const id = (r.body as { task: { id: string } }).task.id;
          while (!started.has(id)) await sleep(1);
          latencies.push(started.get(id)! - t);
          await waitCompleted(svc.app, done + 1, 10_000);
        }
      }
    } finally {
      await svc.stop();
    }
  }
  const figures = [
    figure({
      scenario: `dispatch (${cfg.dispatchTasks.toLocaleString('en-US')} no-op tasks)`,
      metric: 'tasks/s submit to COMPLETED',
      unit: 'tasks/s',
      runs: rates,
      ...(machineBaseline ? { baseline: machineBaseline } : {}),
      target: { op: '>=', value: 3_000, unit: 'tasks/s' },
    }),
    figure({
      scenario: 'dispatch, idle workers',
      metric: 'submit to attempt start p50',
      unit: 'ms',
      runs: [percentile(latencies, 50)],
      target: { op: '<', value: 5, unit: 'ms' },
    }),
    figure({
      scenario: 'dispatch, idle workers',
      metric: 'submit to attempt start p99',
      unit: 'ms',
      runs: [percentile(latencies, 99)],
    }),
  ];
  return { figures, integrity };
}

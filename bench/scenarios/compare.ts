import { figure, type BenchConfig, type Integrity, type ScenarioResult } from '../figures.js';
import { runBullmqOnce } from '../compare/bullmq.js';
import { runPgBossOnce } from '../compare/pg-boss.js';
import { createThrowawayDatabase } from '../compare/throwaway-db.js';
import type { LibraryRun } from '../compare/workload.js';
import { attemptLog, startBenchService } from '../service.js';
import { median } from '../stats.js';
import { submitAll, waitCompleted } from './dispatch.js';

/**
 * N for all three, capped below the dispatch scenario's 50,000: aeq on PostgreSQL completed about
 * 150 no-op tasks/s when this scenario was written (5+ minutes per run at 50,000), pg-boss about 490
 * jobs/s. One N for all three keeps the ratios like for like.
 */
const COMPARE_TASKS_CAP = 10_000;

/** One run of the dispatch workload (bench/scenarios/dispatch.ts) with the service on a fresh PostgreSQL database. */
async function aeqOnPostgresOnce(
  cfg: BenchConfig,
  n: number,
  run: number,
): Promise<{ rate: number; integrity: Integrity }> {
  const db = await createThrowawayDatabase('aeq_bench');
  try {
    const seen = attemptLog();
    const svc = await startBenchService({ noopConcurrency: cfg.noopConcurrency, seen, databaseUrl: db.url });
    try {
      const go = await submitAll(svc.url, n);
      const t0 = performance.now();
      const accepted = await go();
      await waitCompleted(svc.app, n, 120_000 + n * 5);
      const rate = n / ((performance.now() - t0) / 1000);
      const stats = await svc.app.store.stats(0);
      return {
        rate,
        integrity: {
          scenario: `compare: aeq on PostgreSQL run ${run}`,
          expected: n,
          observed: stats.tasks.COMPLETED,
          failedRequests: n - accepted,
          lost: n - stats.tasks.COMPLETED,
          duplicates: seen.calls - seen.started.size,
        },
      };
    } finally {
      await svc.stop();
    }
  } finally {
    await db.drop();
  }
}

function libraryIntegrity(label: string, n: number, r: LibraryRun): Integrity {
  return {
    scenario: label,
    expected: n,
    observed: r.completed,
    failedRequests: r.failures,
    lost: n - r.completed,
    duplicates: r.duplicates,
  };
}

/**
 * Issue 6's comparison: the no-op dispatch workload on aeq with the PostgreSQL store, and the same
 * enqueue-process-complete workload written with BullMQ (Redis of this machine) and with pg-boss
 * (same PostgreSQL), same N (capped at COMPARE_TASKS_CAP), same batching (500 per call, two calls
 * in flight) and the same concurrency (cfg.noopConcurrency). Runs are interleaved (aeq, BullMQ,
 * pg-boss per round) so that the load of the shared machine falls on all three alike. Ratios only:
 * the issue sets no target.
 */
export async function runCompareScenario(cfg: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  const n = Math.min(cfg.dispatchTasks, COMPARE_TASKS_CAP);
  // Quick mode (CI) runs one round only: a round costs two fresh databases and ~10 s at N = 1,000.
  const rounds = cfg.quick ? 1 : cfg.dispatchRuns;
  const aeq: number[] = [];
  const bullmq: number[] = [];
  const pgBoss: number[] = [];
  const integrity: Integrity[] = [];
  for (let run = 1; run <= rounds; run++) {
    log(`compare run ${run}/${rounds}: ${n} no-op tasks on aeq (PostgreSQL), BullMQ, pg-boss`);
    const a = await aeqOnPostgresOnce(cfg, n, run);
    aeq.push(a.rate);
    integrity.push(a.integrity);
    const b = await runBullmqOnce(n, cfg.noopConcurrency);
    bullmq.push(n / b.seconds);
    integrity.push(libraryIntegrity(`compare: BullMQ run ${run}`, n, b));
    const p = await runPgBossOnce(n, cfg.noopConcurrency);
    pgBoss.push(n / p.seconds);
    integrity.push(libraryIntegrity(`compare: pg-boss run ${run}`, n, p));
  }
  const count = n.toLocaleString('en-US');
  const aeqScenario = `dispatch (${count} no-op tasks, PostgreSQL)`;
  const aeqMetric = 'tasks/s submit to COMPLETED';
  const figures = [
    figure({
      scenario: aeqScenario,
      metric: aeqMetric,
      unit: 'tasks/s',
      runs: aeq,
      baseline: { name: 'BullMQ', value: median(bullmq) },
    }),
    figure({
      scenario: aeqScenario,
      metric: aeqMetric,
      unit: 'tasks/s',
      runs: aeq,
      baseline: { name: 'pg-boss', value: median(pgBoss) },
    }),
    figure({
      scenario: `${count} no-op jobs (BullMQ on Redis)`,
      metric: 'jobs/s addBulk to completed',
      unit: 'tasks/s',
      runs: bullmq,
    }),
    figure({
      scenario: `${count} no-op jobs (pg-boss on PostgreSQL)`,
      metric: 'jobs/s insert to completed',
      unit: 'tasks/s',
      runs: pgBoss,
    }),
  ];
  return { figures, integrity };
}

import os from 'node:os';
import { loadSettings } from '../../src/config/settings.js';
import { runBullmqOnce } from '../compare/bullmq.js';
import { runGraphileWorkerOnce } from '../compare/graphile-worker.js';
import { runPgBossOnce } from '../compare/pg-boss.js';
import { createThrowawayDatabase } from '../compare/throwaway-db.js';
import { perTask, startCpuMeter, type CpuUse } from '../compare/cpu-meter.js';
import { PATTERNS, type LibraryRun, type Pattern } from '../compare/workload.js';
import { figure, type BenchConfig, type Figure, type Integrity, type ScenarioResult } from '../figures.js';
import { attemptLog, startBenchService, startBenchWorker, type AttemptLog } from '../service.js';
import { median, round } from '../stats.js';
import { submitAll, waitCompleted } from './dispatch.js';

/**
 * N for all systems, capped below the dispatch scenario's 50,000: aeq on PostgreSQL completed about
 * 150 no-op tasks/s when this scenario was written (5+ minutes per run at 50,000), pg-boss about 490
 * jobs/s, graphile-worker with its defaults about 670 when jobs are added while it runs. One N for all
 * keeps the ratios like for like.
 */
const COMPARE_TASKS_CAP = 10_000;

/** aeq's PostgreSQL pool per process (AEQ_PG_POOL_MAX's default); the libraries on PostgreSQL get the same. */
const POOL_SIZE = loadSettings({}).pgPoolMax;

const CORES = os.availableParallelism();

/** One run's CPU per task as a log line: the machine's, then its parts. */
function cpuLine(c: CpuUse): string {
  const us = (v: number) => `${Math.round(v)} µs`;
  return (
    `CPU per task ${us(c.machine)} (this process ${us(c.node)}, PostgreSQL ${us(c.postgres)}, Redis ${us(c.redis)}); ` +
    `${Math.round((CORES * 1e6) / c.machine)} tasks/s with ${CORES} cores busy`
  );
}

type System = 'aeq' | 'bullmq' | 'graphile-defaults' | 'graphile-tuned' | 'pg-boss';

/** Every round runs the systems in this order, each in both patterns (PATTERNS' order). */
const SYSTEMS: ReadonlyArray<{ id: System; name: string }> = [
  { id: 'aeq', name: 'aeq on PostgreSQL' },
  { id: 'bullmq', name: 'BullMQ' },
  { id: 'graphile-defaults', name: 'graphile-worker defaults' },
  { id: 'graphile-tuned', name: 'graphile-worker tuned' },
  { id: 'pg-boss', name: 'pg-boss' },
];

const PATTERN_NAME: Record<Pattern, string> = {
  'queued-first': 'queued first',
  'while-running': 'added while running',
};

interface RunResult {
  rate: number;
  /** CPU per task (µs) over the timed part of the run. */
  cpu: CpuUse;
  integrity: Omit<Integrity, 'scenario'>;
}

/** An aeq run's rate and integrity: the store's COMPLETED count, attempts beyond one per task. */
function aeqResult(
  n: number,
  seconds: number,
  cpu: CpuUse,
  accepted: number,
  stats: { tasks: { COMPLETED: number } },
  seen: AttemptLog,
): RunResult {
  const completed = stats.tasks.COMPLETED;
  return {
    rate: n / seconds,
    cpu: perTask(cpu, n),
    integrity: {
      expected: n,
      observed: completed,
      failedRequests: n - accepted,
      lost: n - completed,
      duplicates: seen.calls - seen.started.size,
    },
  };
}

/**
 * `while-running`: the dispatch workload (bench/scenarios/dispatch.ts) on one service (API and worker in
 * one process, as the dispatch scenario runs it), timed from the first submit to the n-th COMPLETED.
 */
async function aeqWhileRunning(cfg: BenchConfig, n: number, databaseUrl: string): Promise<RunResult> {
  const seen = attemptLog();
  const svc = await startBenchService({ noopConcurrency: cfg.noopConcurrency, seen, databaseUrl });
  try {
    const go = await submitAll(svc.url, n);
    const t0 = performance.now();
    const cpuSince = startCpuMeter();
    const accepted = await go();
    await waitCompleted(svc.app, n, 120_000 + n * 5);
    const seconds = (performance.now() - t0) / 1000;
    return aeqResult(n, seconds, cpuSince(), accepted, await svc.app.store.figures.stats({ notBefore: 0 }), seen);
  } finally {
    await svc.stop();
  }
}

/**
 * `queued-first`: an API-only service (AEQ_ROLE=api) takes the n tasks while no worker exists; then a
 * worker-only service (AEQ_ROLE=worker, its own pool of POOL_SIZE) starts on the same database, as a
 * worker process would. Timed from the worker's start-up (createApp: store opened, operator changes
 * read; then its claim loop started) to its n-th COMPLETED.
 */
async function aeqQueuedFirst(cfg: BenchConfig, n: number, databaseUrl: string): Promise<RunResult> {
  const seen = attemptLog();
  const api = await startBenchService({ noopConcurrency: cfg.noopConcurrency, databaseUrl, role: 'api' });
  let worker: Awaited<ReturnType<typeof startBenchWorker>> | null = null;
  try {
    const accepted = await (await submitAll(api.url, n))();
    const before = await api.app.store.figures.stats({ notBefore: 0 });
    if (before.tasks.QUEUED !== accepted)
      throw new Error(`aeq queued first: ${before.tasks.QUEUED} of ${accepted} tasks queued before the worker start`);
    const t0 = performance.now();
    const cpuSince = startCpuMeter();
    worker = await startBenchWorker({ noopConcurrency: cfg.noopConcurrency, seen, databaseUrl });
    await waitCompleted(worker.app, n, 120_000 + n * 5);
    const seconds = (performance.now() - t0) / 1000;
    return aeqResult(n, seconds, cpuSince(), accepted, await api.app.store.figures.stats({ notBefore: 0 }), seen);
  } finally {
    await worker?.stop();
    await api.stop();
  }
}

/** One run of aeq with the PostgreSQL store, on a fresh database. */
async function aeqOnPostgresOnce(cfg: BenchConfig, n: number, pattern: Pattern): Promise<RunResult> {
  const db = await createThrowawayDatabase('aeq_bench');
  try {
    return pattern === 'while-running' ? await aeqWhileRunning(cfg, n, db.url) : await aeqQueuedFirst(cfg, n, db.url);
  } finally {
    await db.drop();
  }
}

function fromLibrary(n: number, r: LibraryRun): RunResult {
  return {
    rate: n / r.seconds,
    cpu: perTask(r.cpu, n),
    integrity: {
      expected: n,
      observed: r.completed,
      failedRequests: r.failures,
      lost: n - r.completed,
      duplicates: r.duplicates,
    },
  };
}

async function runOnce(system: System, cfg: BenchConfig, n: number, pattern: Pattern): Promise<RunResult> {
  const c = cfg.noopConcurrency;
  switch (system) {
    case 'aeq':
      return aeqOnPostgresOnce(cfg, n, pattern);
    case 'bullmq':
      return fromLibrary(n, await runBullmqOnce(n, c, pattern));
    case 'graphile-defaults':
      return fromLibrary(n, await runGraphileWorkerOnce(n, c, POOL_SIZE, 'defaults', pattern));
    case 'graphile-tuned':
      return fromLibrary(n, await runGraphileWorkerOnce(n, c, POOL_SIZE, 'tuned', pattern));
    case 'pg-boss':
      return fromLibrary(n, await runPgBossOnce(n, c, POOL_SIZE, pattern));
  }
}

/**
 * The comparison with other job queues: the no-op dispatch workload on aeq with the PostgreSQL store, and the same
 * enqueue-process-complete workload written with BullMQ (Redis of this machine), graphile-worker
 * (same PostgreSQL; its defaults, and its documented throughput settings) and pg-boss (same
 * PostgreSQL): same N (capped at COMPARE_TASKS_CAP), same batching (500 per call, two calls in
 * flight), same concurrency (cfg.noopConcurrency), same PostgreSQL pool (POOL_SIZE). Two patterns for
 * every system (bench/compare/workload.ts Pattern). `cfg.rounds` interleaved rounds: in each, every
 * system runs each pattern once, in the same order, so that the load of the shared machine falls on
 * all alike. The figures list every round and report medians; aeq's are set against BullMQ and
 * graphile-worker tuned, with the target (at least 100% of each) in both patterns.
 */
export async function runCompareScenario(cfg: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  const n = Math.min(cfg.dispatchTasks, COMPARE_TASKS_CAP);
  const rounds = cfg.rounds;
  const rates = new Map<string, number[]>();
  const cpus = new Map<string, CpuUse[]>();
  const key = (s: System, p: Pattern) => `${s}/${p}`;
  const integrity: Integrity[] = [];
  for (let round_ = 1; round_ <= rounds; round_++) {
    log(`compare round ${round_}/${rounds}: ${n} no-op tasks per run, ${SYSTEMS.length} systems x 2 patterns`);
    for (const s of SYSTEMS) {
      for (const p of PATTERNS) {
        const r = await runOnce(s.id, cfg, n, p);
        rates.set(key(s.id, p), [...(rates.get(key(s.id, p)) ?? []), r.rate]);
        cpus.set(key(s.id, p), [...(cpus.get(key(s.id, p)) ?? []), r.cpu]);
        integrity.push({ scenario: `compare round ${round_}: ${s.name}, ${PATTERN_NAME[p]}`, ...r.integrity });
        log(`  ${s.name}, ${PATTERN_NAME[p]}: ${Math.round(r.rate)} tasks/s; ${cpuLine(r.cpu)}`);
      }
    }
    for (const p of PATTERNS) {
      const last = (s: System) => rates.get(key(s, p))?.at(-1) ?? Number.NaN;
      const pct = (s: System) => `${round((last('aeq') / last(s)) * 100, 0)}%`;
      const vs = `${pct('bullmq')} of BullMQ, ${pct('graphile-tuned')} of graphile-worker tuned`;
      log(`  round ${round_}, ${PATTERN_NAME[p]}: aeq at ${vs}`);
    }
  }
  const count = n.toLocaleString('en-US');
  const runsOf = (s: System, p: Pattern) => rates.get(key(s, p)) ?? [];
  const figures: Figure[] = [];
  for (const p of PATTERNS) {
    const aeqMetric =
      p === 'while-running'
        ? 'tasks/s submit to COMPLETED (added while running)'
        : 'tasks/s worker start to COMPLETED (queued first)';
    const aeqFigure = (baseline: System, name: string, target: boolean) =>
      figure({
        scenario: `dispatch (${count} no-op tasks, PostgreSQL)`,
        metric: aeqMetric,
        unit: 'tasks/s',
        runs: runsOf('aeq', p),
        baseline: { name, value: median(runsOf(baseline, p)) },
        ...(target ? { target: { op: 'ratio>=' as const, value: 1 } } : {}),
      });
    figures.push(
      aeqFigure('bullmq', 'BullMQ', true),
      aeqFigure('graphile-tuned', 'graphile-worker tuned', true),
      aeqFigure('graphile-defaults', 'graphile-worker defaults', false),
      aeqFigure('pg-boss', 'pg-boss', false),
    );
  }
  // What each system's task costs the machine, and the rate that cost allows with every core busy.
  for (const s of SYSTEMS)
    for (const p of PATTERNS) {
      const runs = (cpus.get(key(s.id, p)) ?? []).map((c) => c.machine);
      figures.push(
        figure({
          scenario: `CPU per task (${count} no-op tasks, ${s.name}, ${PATTERN_NAME[p]})`,
          metric: 'machine CPU µs per task (every process and the kernel)',
          unit: 'µs',
          runs,
        }),
        figure({
          scenario: `CPU per task (${count} no-op tasks, ${s.name}, ${PATTERN_NAME[p]})`,
          metric: `tasks/s with ${CORES} cores busy at that CPU per task`,
          unit: 'tasks/s',
          runs: runs.map((us) => (CORES * 1e6) / us),
        }),
      );
    }
  const libraries: ReadonlyArray<{ id: System; scenario: string; add: string }> = [
    { id: 'bullmq', scenario: 'BullMQ on Redis', add: 'addBulk' },
    { id: 'graphile-defaults', scenario: 'graphile-worker on PostgreSQL, defaults', add: 'addJobs' },
    {
      id: 'graphile-tuned',
      scenario: 'graphile-worker on PostgreSQL, localQueue + batched completions',
      add: 'addJobs',
    },
    { id: 'pg-boss', scenario: 'pg-boss on PostgreSQL', add: 'insert' },
  ];
  for (const l of libraries)
    for (const p of PATTERNS)
      figures.push(
        figure({
          scenario: `${count} no-op jobs (${l.scenario})`,
          metric:
            p === 'while-running'
              ? `jobs/s ${l.add} to completed (added while running)`
              : 'jobs/s worker start to completed (queued first)',
          unit: 'tasks/s',
          runs: runsOf(l.id, p),
        }),
      );
  return { figures, integrity };
}

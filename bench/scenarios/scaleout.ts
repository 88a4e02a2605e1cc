import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createThrowawayDatabase } from '../compare/throwaway-db.js';
import { cpuMsOf } from '../load.js';
import { figure, type BenchConfig, type Figure, type Integrity, type ScenarioResult } from '../figures.js';
import { BENCH_KEY, call, writeBenchConfig } from '../service.js';
import { median } from '../stats.js';
import { serviceProcessArgs, TSX_ENTRY_ARGS } from './compiled-process.js';
import { submitAll } from './dispatch.js';
import type { ToChild, ToParent } from './scaleout-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Worker processes per run: one API process beside them, all on one PostgreSQL database. */
const WORKER_COUNTS = [1, 2, 4] as const;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;
/**
 * Between the workers' `ready` and the first submit: a worker's LISTEN connection for wake-ups is opened
 * asynchronously after its start, and a submit before it would wait for the next poll (250 ms) instead.
 */
const SETTLE_MS = 500;
const OUTPUT_TAIL_CHARS = 4_000;

/** What a worker process tells of its run: the no-op adapter's attempts, and its claims (and those that were empty). */
interface WorkerReport {
  calls: number;
  ids: string[];
  claims: number;
  emptyClaims: number;
}

export interface Child {
  proc: ChildProcess;
  /** Resolves with the signal or exit code once the process has exited. */
  exited: Promise<string>;
  role: 'api' | 'worker';
  /** An API process's URL (empty for a worker). */
  url: string;
  /** A worker's last reported count of tasks it completed. */
  completed: number;
  report(): Promise<WorkerReport>;
  stop(): Promise<void>;
}

/** A child service's environment: its own data dir (`name` under `dataDir`) and config, the shared database. */
export function childEnv(
  dataDir: string,
  name: string,
  databaseUrl: string,
  concurrency: number,
  logLevel: string,
): Record<string, string> {
  const dir = path.join(dataDir, name);
  fs.mkdirSync(dir);
  return {
    DATABASE_URL: databaseUrl,
    AEQ_API_KEY: BENCH_KEY,
    AEQ_WEBHOOK_ALLOW_PRIVATE: '1',
    AEQ_DATA_DIR: dir,
    AEQ_CONFIG: writeBenchConfig(dir, concurrency),
    AEQ_LOG_LEVEL: logLevel,
  };
}

/**
 * Starts one service process and waits for its `ready`: by default bench/scenarios/scaleout-process.ts under tsx (as
 * the multi-process test starts `src/cli/main.ts`); `nodeArgs` runs another form of it, such as its compiled entry
 * (compiled-process.ts). The environment is the bench's minus any AEQ_*, DATABASE_URL and NODE_OPTIONS, plus `env`.
 * `onLine` receives each complete line of its stdout (its JSON log lines).
 */
export async function startChild(
  role: 'api' | 'worker',
  env: Record<string, string>,
  onLine?: (line: string) => void,
  nodeArgs: readonly string[] = TSX_ENTRY_ARGS,
): Promise<Child> {
  const base = { ...process.env };
  for (const k of Object.keys(base))
    if (k.startsWith('AEQ_') || ['DATABASE_URL', 'HOST', 'NODE_OPTIONS', 'PORT'].includes(k)) delete base[k];
  const proc = spawn(process.execPath, [...nodeArgs], {
    cwd: ROOT,
    env: { ...base, ...env, AEQ_ROLE: role, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  let partial = '';
  if (onLine)
    proc.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
  const exited = new Promise<string>((resolve) => {
    proc.once('exit', (code, signal) => resolve(signal ?? `code ${code}`));
    proc.once('error', (e) => resolve(e.message));
  });
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const reports: Array<(r: WorkerReport) => void> = [];
  const child: Child = {
    proc,
    exited,
    role,
    url: '',
    completed: 0,
    report() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${role} process did not report:\n${output}`)), 10_000);
        reports.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
        proc.send({ type: 'report' } satisfies ToChild);
      });
    },
    async stop() {
      if (gone) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${role} process not ready within ${READY_TIMEOUT_MS / 1000} s:\n${output}`)),
      READY_TIMEOUT_MS,
    );
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`${role} process exited before it was ready (${how}):\n${output}`));
    });
    proc.on('message', (m: ToParent) => {
      if (m.type === 'ready') {
        child.url = m.url;
        clearTimeout(timer);
        resolve();
      } else if (m.type === 'completed') child.completed = m.n;
      else if (m.type === 'report') reports.shift()?.(m);
    });
  });
  try {
    await ready;
  } catch (e) {
    await child.stop();
    throw e;
  }
  return child;
}

/** CPU milliseconds of a process so far, or 0 once it is gone (a backend that closed during the run). */
function cpuMsOrZero(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return cpuMsOf(pid);
  } catch {
    return 0;
  }
}

/**
 * The CPU of each side: the API process, the worker processes together, and the PostgreSQL backends serving the run's
 * database (found by name in pg_stat_activity; a backend opened during the run counts from zero). In ms so far in a
 * reading, in µs per task in a phase.
 */
interface CpuSplit {
  api: number;
  workers: number;
  postgres: number;
}

interface CpuReading {
  split: CpuSplit;
  /** Each backend's CPU (ms) by pid. */
  backends: Map<number, number>;
}

async function readCpu(admin: pg.Client, api: Child, workers: Child[]): Promise<CpuReading> {
  const pids = (
    await admin.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    )
  ).rows.map((r) => r.pid);
  const backends = new Map(pids.map((p) => [p, cpuMsOrZero(p)]));
  return {
    backends,
    split: {
      api: cpuMsOrZero(api.proc.pid),
      workers: workers.reduce((a, w) => a + cpuMsOrZero(w.proc.pid), 0),
      postgres: [...backends.values()].reduce((a, b) => a + b, 0),
    },
  };
}

/** CPU per task (µs) of each side between two readings. */
function cpuPerTask(before: CpuReading, after: CpuReading, n: number): CpuSplit {
  let postgres = 0;
  for (const [pid, ms] of after.backends) postgres += ms - (before.backends.get(pid) ?? 0);
  const us = (ms: number) => (ms * 1000) / n;
  return {
    api: us(after.split.api - before.split.api),
    workers: us(after.split.workers - before.split.workers),
    postgres: us(postgres),
  };
}

/** One timed phase of a run: N tasks submitted and completed. */
interface Phase {
  rate: number;
  /** CPU per task (µs) of the API process, the workers together and the run's PostgreSQL backends. */
  cpu: CpuSplit;
  /** The workers' claims in the phase, all and empty: each claim's fixed cost is spread over its tasks. */
  claims: number;
  emptyClaims: number;
}

interface ScaleRun {
  /** The first N tasks of freshly started processes (their code not yet optimised by V8), then N more. */
  fresh: Phase;
  warm: Phase;
  integrity: Omit<Integrity, 'scenario'>;
}

/**
 * One run: a fresh database; one API process (started first, so that it applies the migrations) and
 * `workers` worker processes, each with the default pool (AEQ_PG_POOL_MAX) and the no-op engine at
 * `cfg.noopConcurrency`, a limit counted across all workers (as for any engine). Two phases, each N tasks submitted
 * through the API (batches of 500, two in flight) and timed from the first submit until the workers' counts of
 * COMPLETED have grown by N: first on the freshly started processes, then again on the same processes, warm. A
 * service runs warm; the fresh phase, about a second at these rates, also holds each process's own warm-up (V8
 * compiling the hot paths, the pools' connections), which a second process pays again. The store's count
 * (GET /stats) is read once at the end.
 */
async function scaleoutOnce(cfg: BenchConfig, n: number, workers: number): Promise<ScaleRun> {
  const db = await createThrowawayDatabase('aeq_bench_scale');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-bench-scale-'));
  const children: Child[] = [];
  const activity = new pg.Client({ connectionString: db.url });
  try {
    const env = (name: string) => childEnv(dataDir, name, db.url, cfg.noopConcurrency, 'warn');
    const nodeArgs = await serviceProcessArgs(cfg.quick);
    const api = await startChild('api', env('api'), undefined, nodeArgs);
    children.push(api);
    const started = await Promise.allSettled(
      Array.from({ length: workers }, (_, i) => startChild('worker', env(`worker-${i + 1}`), undefined, nodeArgs)),
    );
    for (const s of started) if (s.status === 'fulfilled') children.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const ws = children.filter((c) => c.role === 'worker');
    await sleep(SETTLE_MS);
    await activity.connect();
    const done = () => ws.reduce((a, w) => a + w.completed, 0);
    let accepted = 0;
    let last = { claims: 0, emptyClaims: 0, calls: 0, ids: [] as string[] };
    const report = async () => {
      const reports = await Promise.all(ws.map((w) => w.report()));
      return {
        claims: reports.reduce((a, r) => a + r.claims, 0),
        emptyClaims: reports.reduce((a, r) => a + r.emptyClaims, 0),
        calls: reports.reduce((a, r) => a + r.calls, 0),
        ids: reports.flatMap((r) => r.ids),
      };
    };
    let checkpointRefused = false;
    const phase = async (): Promise<Phase> => {
      // Each phase starts just after a checkpoint: one that fell inside a phase (every few hundred MB of WAL) slowed
      // whichever worker count it fell on, by full-page writes and the flush. A role that may not (neither superuser
      // nor pg_checkpoint) runs the phase without it, and says so.
      await activity.query('checkpoint').catch((e: unknown) => {
        if (!checkpointRefused) console.warn(`[bench] scale-out: no CHECKPOINT before the phases (${String(e)})`);
        checkpointRefused = true;
      });
      const target = done() + n;
      const cpuBefore = await readCpu(activity, api, ws);
      const go = await submitAll(api.url, n);
      const t0 = performance.now();
      accepted += await go();
      const timeoutMs = 120_000 + n * 5;
      const deadline = Date.now() + timeoutMs;
      while (done() < target) {
        if (Date.now() > deadline)
          throw new Error(
            `scale-out, ${workers} workers: ${done()} of ${target} tasks completed after ${timeoutMs} ms`,
          );
        await sleep(5);
      }
      const rate = n / ((performance.now() - t0) / 1000);
      const cpu = cpuPerTask(cpuBefore, await readCpu(activity, api, ws), n);
      const before = last;
      last = await report();
      return { rate, cpu, claims: last.claims - before.claims, emptyClaims: last.emptyClaims - before.emptyClaims };
    };
    const fresh = await phase();
    const warm = await phase();
    const stats = (await call(api.url, 'GET', '/stats')).body as { tasks: { COMPLETED: number } };
    return {
      fresh,
      warm,
      integrity: {
        expected: 2 * n,
        observed: stats.tasks.COMPLETED,
        failedRequests: 2 * n - accepted,
        lost: 2 * n - stats.tasks.COMPLETED,
        duplicates: last.calls - new Set(last.ids).size,
      },
    };
  } finally {
    // Ending a client that never connected is a no-op.
    await activity.end().catch(() => undefined);
    await Promise.all(children.map((c) => c.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  }
}

/**
 * Scale-out: tasks/s of the no-op dispatch workload with one API process and 1, 2 and 4 worker
 * processes on one PostgreSQL, each a real OS process. `cfg.rounds` interleaved rounds (1, 2, 4 workers
 * in each); medians reported, with the 1-worker median as the baseline of the others (the ratio is
 * the speed-up).
 */
export async function runScaleoutScenario(cfg: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  const n = cfg.scaleoutTasks;
  const phases = ['fresh', 'warm'] as const;
  const rates = new Map<string, number[]>();
  const integrity: Integrity[] = [];
  const processes = (k: number) => `${k} worker process${k > 1 ? 'es' : ''}`;
  for (let round = 1; round <= cfg.rounds; round++) {
    log(
      `scale-out round ${round}/${cfg.rounds}: ${n} no-op tasks on fresh processes then ${n} warm, 1 API process and ` +
        `${WORKER_COUNTS.join(', ')} workers`,
    );
    for (const k of WORKER_COUNTS) {
      const r = await scaleoutOnce(cfg, n, k);
      integrity.push({ scenario: `scale-out round ${round}: ${processes(k)}`, ...r.integrity });
      for (const p of phases) {
        const ph = r[p];
        rates.set(`${p} ${k}`, [...(rates.get(`${p} ${k}`) ?? []), ph.rate]);
        log(
          `  ${processes(k)}, ${p}: ${Math.round(ph.rate)} tasks/s; ${ph.claims} claims (${ph.emptyClaims} empty), ` +
            `${(n / Math.max(1, ph.claims)).toFixed(1)} tasks per claim; CPU per task ${Math.round(ph.cpu.api)} µs ` +
            `API, ${Math.round(ph.cpu.workers)} µs workers, ${Math.round(ph.cpu.postgres)} µs PostgreSQL`,
        );
      }
    }
  }
  const figures: Figure[] = phases.flatMap((p) => {
    const one = median(rates.get(`${p} 1`) ?? []);
    return WORKER_COUNTS.map((k) =>
      figure({
        scenario: `scale-out (${n.toLocaleString('en-US')} no-op tasks, PostgreSQL, 1 API process)`,
        metric:
          `tasks/s submit to COMPLETED, ${processes(k)}, ` +
          (p === 'fresh' ? 'the first tasks of fresh processes' : 'the next tasks, processes warm'),
        unit: 'tasks/s',
        runs: rates.get(`${p} ${k}`) ?? [],
        ...(k > 1 ? { baseline: { name: '1 worker process', value: one } } : {}),
      }),
    );
  });
  return { figures, integrity };
}

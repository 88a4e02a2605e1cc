import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createThrowawayDatabase } from '../compare/throwaway-db.js';
import { figure, type BenchConfig, type Integrity, type ScenarioResult } from '../figures.js';
import { startCountingReceiver } from '../receiver.js';
import { median } from '../stats.js';
import { serviceProcessArgs } from './compiled-process.js';
import { submitAll } from './dispatch.js';
import { logTap } from './recovery.js';
import { childEnv, startChild, type Child } from './scaleout.js';

/**
 * Recovery when every process dies: kill -9 of the API process and both worker processes under load, then all three
 * started again on the same PostgreSQL database. N no-op tasks of TASK_DELAY_MS on average (0.5 to 1.5 times it) with
 * webhooks to a local receiver that answers after RECEIVER_DELAY_MS, ENGINE_CONCURRENCY slots across both workers,
 * the kill once KILL_AT_SHARE of the tasks have completed. Timed from the restart (the moment the new processes are
 * spawned, so their start-up counts): every task terminal, every webhook delivered.
 *
 * The remaining work sets a floor: the tasks not completed at the restart take at least their number times the mean
 * delay over the concurrency, however fast the recovery. The figure to hold against the target is therefore given
 * with its floor and the overhead above it (start-up, the sweep of the dead workers' tasks and deliveries, and the
 * claims).
 */
const TASK_DELAY_MS = 1_000;
const ENGINE_CONCURRENCY = 128;
const RECEIVER_DELAY_MS = 200;
const KILL_AT_SHARE = 0.5;
const POLL_MS = 50;
const SETTLE_MS = 500;
/** Far past the 30 s task lease and the 61 s delivery lease, so a recovery that waited for them is measured. */
const DONE_TIMEOUT_MS = 180_000;

interface Counts {
  completed: number;
  failed: number;
  processing: number;
  queued: number;
  delivered: number;
  sending: number;
}

async function counts(db: pg.Client): Promise<Counts> {
  const r = await db.query<Counts>(
    `select count(*) filter (where status = 'COMPLETED')::int as completed,
       count(*) filter (where status = 'FAILED')::int as failed,
       count(*) filter (where status = 'PROCESSING')::int as processing,
       count(*) filter (where status = 'QUEUED')::int as queued,
       (select count(*) from webhook_deliveries where status = 'DELIVERED')::int as delivered,
       (select count(*) from webhook_deliveries where status = 'SENDING')::int as sending
     from tasks`,
  );
  const row = r.rows[0];
  if (!row) throw new Error('no row');
  return row;
}

/** Seconds from `t0` (epoch ms) to the earliest of `times` (epoch ms; NaN ignored), or NaN when there is none. */
function sinceMs(t0: number, times: number[]): number {
  const known = times.filter((t) => Number.isFinite(t));
  return known.length > 0 ? (Math.min(...known) - t0) / 1000 : Number.NaN;
}

interface AllDownRun {
  /** Seconds from the restart. */
  ready: number;
  /** Seconds from the restart to the API process's `ready`, and to the later of the two workers'. */
  readyApi: number;
  readyWorkers: number;
  /**
   * Seconds from the restart to the first 'dead workers released' line of a new worker (what the dead held handed
   * back), and to the first 'attempt started' line of either (the first claim's tasks running), from the workers' logs.
   */
  released: number;
  firstStarted: number;
  firstFinish: number;
  allTerminal: number;
  allDelivered: number;
  /** The remaining work's own duration at full concurrency (s), and what the recovery took above it. */
  floor: number;
  overhead: number;
  remaining: number;
  processingAtKill: number;
  sendingAtKill: number;
  duplicateDeliveries: number;
  strayDuplicates: string[];
  completedTwice: string[];
  integrity: Integrity[];
}

async function allDownOnce(
  n: number,
  nodeArgs: readonly string[],
  log: (s: string) => void,
  round: number,
): Promise<AllDownRun> {
  const db = await createThrowawayDatabase('aeq_bench_recovery_all');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-bench-recovery-all-'));
  const receiver = await startCountingReceiver({ delayMs: RECEIVER_DELAY_MS });
  const children: Child[] = [];
  const client = new pg.Client({ connectionString: db.url });
  let connected = false;
  // The second start, awaited before the processes are stopped, so that none is left running if the run fails.
  let restarting: Promise<void> = Promise.resolve();
  // Every 'task finished' line of every worker, old and new, so a task completed twice is seen.
  const taps = [logTap(), logTap(), logTap(), logTap()] as const;
  try {
    const env = (name: string, level: string) => ({
      ...childEnv(dataDir, name, db.url, ENGINE_CONCURRENCY, level),
      BENCH_NOOP_DELAY_MS: String(TASK_DELAY_MS),
    });
    // Seconds from the spawn to each process's `ready`, in the order API, worker 1, worker 2 (of the last start).
    let readyEach: number[] = [];
    const startAll = async (generation: 1 | 2): Promise<Child[]> => {
      const t0 = performance.now();
      const timed = async (p: Promise<Child>, i: number): Promise<Child> => {
        const c = await p;
        readyEach[i] = (performance.now() - t0) / 1000;
        return c;
      };
      readyEach = [];
      const started = await Promise.allSettled([
        timed(startChild('api', env(`api-${generation}`, 'warn'), undefined, nodeArgs), 0),
        timed(
          startChild('worker', env(`worker-${generation}-1`, 'info'), taps[(generation - 1) * 2]!.onLine, nodeArgs),
          1,
        ),
        timed(
          startChild('worker', env(`worker-${generation}-2`, 'info'), taps[(generation - 1) * 2 + 1]!.onLine, nodeArgs),
          2,
        ),
      ]);
      const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      children.push(...up);
      for (const s of started) if (s.status === 'rejected') throw s.reason;
      return up;
    };
    const first = await startAll(1);
    const api = first[0]!;
    await client.connect();
    connected = true;
    await sleep(SETTLE_MS);
    const go = await submitAll(api.url, n, { webhook: { url: receiver.url } });
    const accepted = await go();
    const killDeadline = Date.now() + 60_000 + n * TASK_DELAY_MS;
    while ((await counts(client)).completed < n * KILL_AT_SHARE) {
      if (Date.now() > killDeadline) throw new Error('recovery-all: the work did not get under way');
      await sleep(10);
    }
    for (const c of first) c.proc.kill('SIGKILL');
    await Promise.all(first.map((c) => c.exited));
    const atKill = await counts(client);
    const inFlight = new Set(
      (
        await client.query<{ id: string }>("select task_id as id from webhook_deliveries where status = 'SENDING'")
      ).rows.map((r) => r.id),
    );
    const remaining = n - atKill.completed - atKill.failed;
    const floor = (remaining * TASK_DELAY_MS) / ENGINE_CONCURRENCY / 1000;
    log(
      `  round ${round}: killed the API and both workers with ${atKill.completed} of ${n} completed, ` +
        `${atKill.processing} PROCESSING, ${atKill.sending} deliveries SENDING; ${remaining} tasks left ` +
        `(at least ${floor.toFixed(2)} s of work at concurrency ${ENGINE_CONCURRENCY})`,
    );
    // A moment with nothing running, as after a machine's restart.
    await sleep(1_000);
    const restartedAt = performance.now();
    const restartedAtMs = Date.now();
    // The database is read from the restart on, while the processes start: the workers can finish tasks before the
    // API process is ready, and the first finish is seen when it happens.
    const start = { ready: Number.NaN, error: null as unknown };
    restarting = startAll(2).then(
      () => {
        start.ready = (performance.now() - restartedAt) / 1000;
      },
      (e: unknown) => {
        start.error = e ?? new Error('recovery-all: the restart failed');
      },
    );
    let firstFinish = Number.NaN;
    let allTerminal = Number.NaN;
    let allDelivered = Number.NaN;
    const deadline = Date.now() + DONE_TIMEOUT_MS;
    for (;;) {
      if (start.error !== null) throw start.error;
      const t = (performance.now() - restartedAt) / 1000;
      const c = await counts(client);
      if (Number.isNaN(firstFinish) && c.completed + c.failed > atKill.completed + atKill.failed) firstFinish = t;
      if (Number.isNaN(allTerminal) && c.completed + c.failed >= accepted) allTerminal = t;
      if (Number.isNaN(allDelivered) && c.delivered >= accepted && receiver.unique() >= accepted) allDelivered = t;
      if (!Number.isNaN(allTerminal + allDelivered + start.ready)) break;
      if (Date.now() > deadline) throw new Error(`recovery-all: not done ${DONE_TIMEOUT_MS} ms after the restart`);
      await sleep(POLL_MS);
    }
    const ready = start.ready;
    const end = await counts(client);
    const finished = new Map<string, number>();
    for (const tap of taps) for (const [id, k] of tap.finished) finished.set(id, (finished.get(id) ?? 0) + k);
    const completedTwice = [...finished].filter(([, k]) => k > 1).map(([id]) => id);
    const duplicated = [...receiver.counts()].filter(([, k]) => k > 1).map(([id]) => id);
    const strayDuplicates = duplicated.filter((id) => !inFlight.has(id));
    const scenario = `recovery-all round ${round}`;
    return {
      ready,
      readyApi: readyEach[0] ?? Number.NaN,
      readyWorkers: Math.max(readyEach[1] ?? Number.NaN, readyEach[2] ?? Number.NaN),
      released: sinceMs(
        restartedAtMs,
        taps.slice(2).flatMap((t) => t.released.map((r) => r.time)),
      ),
      firstStarted: sinceMs(
        restartedAtMs,
        taps.slice(2).map((t) => t.firstStarted()),
      ),
      firstFinish,
      allTerminal,
      allDelivered,
      floor,
      overhead: allTerminal - floor,
      remaining,
      processingAtKill: atKill.processing,
      sendingAtKill: atKill.sending,
      duplicateDeliveries: receiver.duplicates(),
      strayDuplicates,
      completedTwice,
      integrity: [
        {
          scenario: `${scenario}: tasks (duplicates: completed twice)`,
          expected: n,
          observed: end.completed,
          failedRequests: n - accepted,
          lost: n - end.completed,
          duplicates: completedTwice.length,
        },
        {
          scenario: `${scenario}: webhooks (duplicates: deliveries beyond one per task)`,
          expected: n,
          observed: receiver.unique(),
          failedRequests: n - accepted,
          lost: n - receiver.unique(),
          duplicates: receiver.duplicates(),
        },
      ],
    };
  } finally {
    await restarting;
    if (connected) await client.end().catch(() => undefined);
    await Promise.all(children.map((c) => c.stop()));
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  }
}

/** `cfg.rounds` rounds of the kill of every process; every figure is the median over them, with each round listed. */
export async function runRecoveryAllScenario(cfg: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  const n = cfg.recoveryTasks;
  // As deployed (`npm start`): plain node on the bundled service, built first (compiled-process.ts); quick mode runs
  // tsx, no build.
  if (!cfg.quick) log('recovery-all: building the service (npm run build), to run its processes bundled, as npm start');
  const nodeArgs = await serviceProcessArgs(cfg.quick);
  const runs: AllDownRun[] = [];
  for (let round = 1; round <= cfg.rounds; round++) {
    log(
      `recovery-all round ${round}/${cfg.rounds}: ${n} tasks of ${TASK_DELAY_MS} ms on average with webhooks, ` +
        '1 API process and 2 workers, kill -9 of all three, then all three started again',
    );
    const r = await allDownOnce(n, nodeArgs, log, round);
    runs.push(r);
    log(
      `  round ${round}: ready ${r.ready.toFixed(2)} s after the restart (API ${r.readyApi.toFixed(2)} s, workers ` +
        `${r.readyWorkers.toFixed(2)} s), dead workers' work released ${r.released.toFixed(2)} s, first attempt ` +
        `started ${r.firstStarted.toFixed(2)} s, first task finished ` +
        `${r.firstFinish.toFixed(2)} s, every task terminal ${r.allTerminal.toFixed(2)} s (floor ` +
        `${r.floor.toFixed(2)} s, overhead ${r.overhead.toFixed(2)} s), every webhook delivered ` +
        `${r.allDelivered.toFixed(2)} s; duplicate deliveries ${r.duplicateDeliveries} (of ${r.sendingAtKill} in ` +
        `flight), not in flight ${r.strayDuplicates.length}, completed twice ${r.completedTwice.length}`,
    );
    if (r.strayDuplicates.length > 0)
      log(`  round ${round}: DUPLICATE DELIVERIES NOT IN FLIGHT AT THE KILL: ${r.strayDuplicates.join(', ')}`);
    if (r.completedTwice.length > 0) log(`  round ${round}: TASKS COMPLETED TWICE: ${r.completedTwice.join(', ')}`);
  }
  const scenario =
    `recovery-all: kill -9 of the API and both worker processes (PostgreSQL, ${n.toLocaleString('en-US')} tasks of ` +
    `${TASK_DELAY_MS / 2}-${TASK_DELAY_MS * 1.5} ms with webhooks answered after ${RECEIVER_DELAY_MS} ms, engine ` +
    `concurrency ${ENGINE_CONCURRENCY}, killed at ${KILL_AT_SHARE * 100}% completed), all three started again ` +
    (cfg.quick ? '(under tsx)' : '(node on the bundle, as npm start)');
  const col = (f: (r: AllDownRun) => number) => runs.map(f);
  const none = (unit: string) => ({ op: '<', value: 1, unit }) as const;
  const figures = [
    figure({
      scenario,
      metric: 'all three processes ready (s after the restart)',
      unit: 's',
      runs: col((r) => r.ready),
    }),
    figure({
      scenario,
      metric: 'the API process ready (s after the restart)',
      unit: 's',
      runs: col((r) => r.readyApi),
    }),
    figure({
      scenario,
      metric: 'both worker processes ready (s after the restart)',
      unit: 's',
      runs: col((r) => r.readyWorkers),
    }),
    figure({
      scenario,
      metric: "the dead workers' tasks and deliveries handed back (s after the restart)",
      unit: 's',
      runs: col((r) => r.released),
    }),
    figure({
      scenario,
      metric: 'first attempt started by a new worker (s after the restart)',
      unit: 's',
      runs: col((r) => r.firstStarted),
    }),
    figure({
      scenario,
      metric: 'first task finished (s after the restart)',
      unit: 's',
      runs: col((r) => r.firstFinish),
    }),
    figure({
      scenario,
      metric: 'every task terminal (s after the restart)',
      unit: 's',
      runs: col((r) => r.allTerminal),
      target: { op: '<', value: 10, unit: 's' },
    }),
    figure({
      scenario,
      metric: "the remaining work's own duration at full concurrency (the floor, s)",
      unit: 's',
      runs: col((r) => r.floor),
    }),
    figure({ scenario, metric: 'above the floor (s)', unit: 's', runs: col((r) => r.overhead) }),
    figure({
      scenario,
      metric: 'every webhook delivered (s after the restart)',
      unit: 's',
      runs: col((r) => r.allDelivered),
    }),
    figure({
      scenario,
      metric: 'deliveries SENDING at the kill',
      unit: 'deliveries',
      runs: col((r) => r.sendingAtKill),
    }),
    figure({
      scenario,
      metric: 'duplicate deliveries (received beyond one per task)',
      unit: 'deliveries',
      runs: col((r) => r.duplicateDeliveries),
    }),
    figure({
      scenario,
      metric: 'duplicate deliveries of tasks not SENDING at the kill',
      unit: 'deliveries',
      runs: col((r) => r.strayDuplicates.length),
      target: none('deliveries'),
    }),
    figure({
      scenario,
      metric: "tasks completed twice (workers' 'task finished' lines)",
      unit: 'tasks',
      runs: col((r) => r.completedTwice.length),
      target: none('tasks'),
    }),
  ];
  log(
    `recovery-all medians: every task terminal ${median(col((r) => r.allTerminal)).toFixed(2)} s after the restart ` +
      `(floor ${median(col((r) => r.floor)).toFixed(2)} s)`,
  );
  return { figures, integrity: runs.flatMap((r) => r.integrity) };
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { loadServiceConfig } from '../../src/config/engine-config.js';
import { loadSettings } from '../../src/config/settings.js';
import { createThrowawayDatabase } from '../compare/throwaway-db.js';
import { figure, type BenchConfig, type Integrity, type ScenarioResult } from '../figures.js';
import { startCountingReceiver } from '../receiver.js';
import { NOOP_ENGINE, writeBenchConfig } from '../service.js';
import { median } from '../stats.js';
import { submitAll } from './dispatch.js';
import { childEnv, startChild, type Child } from './scaleout.js';

/**
 * Recovery: kill -9 of one of two worker processes under load, with the default liveness interval and
 * lease. One API process and two worker processes (bench/scenarios/scaleout-process.ts) on a fresh PostgreSQL
 * database; N no-op tasks that take TASK_DELAY_MS on average (0.5 to 1.5 times it), with ENGINE_CONCURRENCY slots
 * across both workers, each with a webhook to a local receiver that answers after RECEIVER_DELAY_MS (so deliveries
 * are in flight). Once the workers are under way, one is killed with SIGKILL while it holds tasks and, when it can be
 * seen, deliveries whose attempt has started; the bench then reads the database every POLL_MS (read-only) until what
 * it held is back, and then until every task is COMPLETED and every delivery DELIVERED.
 */
const TASK_DELAY_MS = 1_000;
const ENGINE_CONCURRENCY = 128;
const RECEIVER_DELAY_MS = 200;
const POLL_MS = 50;
/** The kill comes once this share of the tasks has completed (the workers are under way, most work is still due). */
const KILL_AFTER_SHARE = 0.3;
/** Past this share, the kill comes even if no delivery of the victim was seen SENDING. */
const KILL_BY_SHARE = 0.5;
/** Beyond the delivery lease (61 s), so that a recovery by lease fallback alone is measured, not cut short. */
const RECOVERY_TIMEOUT_MS = 120_000;
/** As in the scale-out scenario: a worker's LISTEN connection is opened after its `ready`. */
const SETTLE_MS = 500;

/** What the killed worker held, read just before and just after the kill. */
interface Held {
  /** Its workers row still exists (no sweep has released it yet). */
  registered: boolean;
  tasks: string[];
  sending: string[];
  /** Of `sending`, those whose attempt was recorded as started and not finished (the request may be on the wire). */
  started: string[];
}

interface RecoveryRun {
  /** Seconds from the kill. */
  tasksBack: number;
  slotsFree: number;
  slotsTaken: number;
  deliveriesReleased: number;
  redelivered: number;
  /** From the live worker's 'dead workers released' log line (its own clock, ms since the epoch), seconds. */
  sweepLogged: number;
  heldTasks: number;
  heldSending: number;
  /** Of those, attempts recorded as started, and deliveries the receiver had seen just after the kill. */
  heldStarted: number;
  heldReceived: number;
  duplicateDeliveries: number;
  /** Duplicates of tasks whose delivery was not SENDING under the killed worker at the kill: must be none. */
  strayDuplicates: string[];
  completedTwice: string[];
  integrity: Integrity[];
}

/**
 * Counts 'task finished' lines per task id, and keeps the 'dead workers released' lines and the time of the first
 * 'attempt started' line (epoch ms, NaN before one), of one worker's output.
 */
export function logTap(): {
  finished: Map<string, number>;
  released: Array<{ time: number; deadWorkers: string[]; requeued: number; deliveries: number }>;
  firstStarted(): number;
  onLine(line: string): void;
} {
  const finished = new Map<string, number>();
  const released: Array<{ time: number; deadWorkers: string[]; requeued: number; deliveries: number }> = [];
  let firstStarted = Number.NaN;
  return {
    finished,
    released,
    firstStarted: () => firstStarted,
    onLine(line) {
      const isFinish = line.includes('"task finished"');
      const isRelease = line.includes('"dead workers released"');
      const isFirstStart = Number.isNaN(firstStarted) && line.includes('"attempt started"');
      if (!isFinish && !isRelease && !isFirstStart) return;
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      if (isFirstStart) firstStarted = typeof o.time === 'string' ? Date.parse(o.time) : Number(o.time);
      if (isFinish && typeof o.taskId === 'string') finished.set(o.taskId, (finished.get(o.taskId) ?? 0) + 1);
      if (isRelease)
        released.push({
          time: typeof o.time === 'string' ? Date.parse(o.time) : Number(o.time),
          deadWorkers: Array.isArray(o.deadWorkers) ? o.deadWorkers.map(String) : [],
          requeued: Number(o.requeued),
          deliveries: Number(o.deliveries),
        });
    },
  };
}

async function held(db: pg.Client, worker: string): Promise<Held> {
  const r = await db.query<Held>(
    `select exists (select 1 from workers where id = $1) as registered,
       coalesce((select array_agg(id) from tasks where status = 'PROCESSING' and worker_id = $1), '{}') as tasks,
       coalesce((select array_agg(task_id) from webhook_deliveries where status = 'SENDING' and holder = $1), '{}')
         as sending,
       coalesce((select array_agg(d.task_id) from webhook_deliveries d join webhook_attempts a
           on a.task_id = d.task_id and a.attempt = d.attempts and a.finished_at is null
         where d.status = 'SENDING' and d.holder = $1), '{}') as started`,
    [worker],
  );
  const row = r.rows[0];
  if (!row) throw new Error('no row');
  return row;
}

interface Progress {
  deadTasks: number;
  liveTasks: number;
  engineProcessing: number;
  queued: number;
  completed: number;
  deadSending: number;
  /** Of those, with an attempt started and not finished: the request is on its way or at the receiver. */
  deadStarted: number;
  /** Deliveries of `inFlight` not DELIVERED yet. */
  undelivered: number;
}

async function progress(db: pg.Client, dead: string, inFlight: readonly string[]): Promise<Progress> {
  const r = await db.query<Progress>(
    `select count(*) filter (where status = 'PROCESSING' and worker_id = $1)::int as "deadTasks",
       count(*) filter (where status = 'PROCESSING' and worker_id is distinct from $1)::int as "liveTasks",
       count(*) filter (where status = 'PROCESSING' and task_type = $2)::int as "engineProcessing",
       count(*) filter (where status = 'QUEUED')::int as queued,
       count(*) filter (where status = 'COMPLETED')::int as completed,
       (select count(*) from webhook_deliveries where status = 'SENDING' and holder = $1)::int as "deadSending",
       (select count(*) from webhook_deliveries d join webhook_attempts a
           on a.task_id = d.task_id and a.attempt = d.attempts and a.finished_at is null
         where d.status = 'SENDING' and d.holder = $1)::int as "deadStarted",
       (select count(*) from webhook_deliveries where task_id = any($3::text[]) and status <> 'DELIVERED')::int
         as undelivered
     from tasks`,
    [dead, NOOP_ENGINE, inFlight],
  );
  const row = r.rows[0];
  if (!row) throw new Error('no row');
  return row;
}

async function workerId(db: pg.Client, w: Child): Promise<string> {
  const r = await db.query<{ id: string }>('select id from workers where id like $1', [`worker-${w.proc.pid}-%`]);
  const id = r.rows[0]?.id;
  if (!id) throw new Error(`no workers row for process ${w.proc.pid}`);
  return id;
}

async function recoveryOnce(n: number, log: (s: string) => void, round: number): Promise<RecoveryRun> {
  const db = await createThrowawayDatabase('aeq_bench_recovery');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-bench-recovery-'));
  const receiver = await startCountingReceiver({ delayMs: RECEIVER_DELAY_MS });
  const children: Child[] = [];
  const client = new pg.Client({ connectionString: db.url });
  let connected = false;
  try {
    const env = (name: string, level: string) => ({
      ...childEnv(dataDir, name, db.url, ENGINE_CONCURRENCY, level),
      BENCH_NOOP_DELAY_MS: String(TASK_DELAY_MS),
    });
    const api = await startChild('api', env('api', 'warn'));
    children.push(api);
    // Info level: each 'task finished' line (written synchronously, so a killed worker's last ones are not lost).
    const taps = [logTap(), logTap()] as const;
    const started = await Promise.allSettled(
      taps.map((tap, i) => startChild('worker', env(`worker-${i + 1}`, 'info'), tap.onLine)),
    );
    for (const s of started) if (s.status === 'fulfilled') children.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const workers = children.filter((c) => c.role === 'worker') as [Child, Child];
    await client.connect();
    connected = true;
    const ids = [await workerId(client, workers[0]), await workerId(client, workers[1])] as const;
    await sleep(SETTLE_MS);

    const go = await submitAll(api.url, n, { webhook: { url: receiver.url } });
    const accepted = await go();
    // Under way: some of the work is done and the victim (the worker holding more tasks; the engine's slots are
    // seldom shared evenly) holds tasks; ideally at least a quarter of the slots and a delivery whose attempt has
    // started (its request on the way), or whatever it holds once half the work is done.
    const killDeadline = Date.now() + 60_000 + n * TASK_DELAY_MS;
    let v: 0 | 1 = 0;
    let liveAtKill = 0;
    for (;;) {
      const ps = [await progress(client, ids[0], []), await progress(client, ids[1], [])] as const;
      v = ps[1].deadTasks > ps[0].deadTasks ? 1 : 0;
      const p = ps[v];
      liveAtKill = p.liveTasks;
      const ideal = p.deadTasks >= ENGINE_CONCURRENCY / 4 && p.deadStarted > 0;
      if (p.deadTasks > 0 && p.completed >= n * KILL_AFTER_SHARE && (ideal || p.completed >= n * KILL_BY_SHARE)) break;
      if (Date.now() > killDeadline) throw new Error(`recovery: no moment to kill: ${JSON.stringify(ps)}`);
      await sleep(10);
    }
    const victim = workers[v];
    const deadId = ids[v];
    const liveId = ids[v === 0 ? 1 : 0];
    const before = await held(client, deadId);
    const killedAt = performance.now();
    const killedAtEpoch = Date.now();
    victim.proc.kill('SIGKILL');
    await victim.exited;
    const after = await held(client, deadId);
    // In flight at the kill: SENDING under the victim just before or just after it (the union, in case a sweep
    // released some in between or the victim claimed more).
    const inFlight = [...new Set([...before.sending, ...after.sending])];
    const atKill = after.registered ? after : before;
    const heldTasks = atKill.tasks.length;
    const heldSending = atKill.sending.length;
    const heldReceived = atKill.sending.filter((id) => receiver.counts().has(id)).length;
    log(
      `  round ${round}: killed ${deadId} (pid ${victim.proc.pid}) holding ${heldTasks} tasks and ${heldSending} ` +
        `SENDING deliveries (${before.tasks.length} and ${before.sending.length} just before the kill); of these, ` +
        `${atKill.started.length} with an attempt started, ${heldReceived} already received; ` +
        `the live worker held ${liveAtKill} tasks`,
    );

    // Seconds from the kill to the first poll that saw each condition. The live worker's share of the limit was
    // whatever the victim did not hold: 'taken' is the first poll, once the victim's rows are gone, at which the live
    // worker holds more than that (a task the victim had sent the finish of before it died frees a slot earlier).
    const share = ENGINE_CONCURRENCY - heldTasks;
    let tasksBack = Number.NaN;
    let slotsFree = Number.NaN;
    let slotsTaken = Number.NaN;
    let deliveriesReleased = Number.NaN;
    let redelivered = Number.NaN;
    const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
    for (;;) {
      const t = (performance.now() - killedAt) / 1000;
      const p = await progress(client, deadId, inFlight);
      if (Number.isNaN(tasksBack) && p.deadTasks === 0) tasksBack = t;
      if (Number.isNaN(slotsFree) && p.engineProcessing === p.liveTasks) slotsFree = t;
      if (Number.isNaN(slotsTaken) && p.deadTasks === 0 && p.liveTasks > share) slotsTaken = t;
      if (Number.isNaN(deliveriesReleased) && p.deadSending === 0) deliveriesReleased = t;
      if (Number.isNaN(redelivered) && p.undelivered === 0) redelivered = t;
      const taken = !Number.isNaN(slotsTaken) || p.queued === 0;
      if (!Number.isNaN(tasksBack + slotsFree + deliveriesReleased + redelivered) && taken) break;
      if (Date.now() > deadline)
        throw new Error(`recovery: not back after ${RECOVERY_TIMEOUT_MS} ms: ${JSON.stringify(p)}`);
      await sleep(POLL_MS);
    }

    // Then everything finishes: every task COMPLETED and every delivery DELIVERED (so every request has arrived).
    const doneDeadline = Date.now() + 120_000 + n * TASK_DELAY_MS;
    for (;;) {
      const r = await client.query<{ completed: number; delivered: number }>(
        `select (select count(*) from tasks where status = 'COMPLETED')::int as completed,
           (select count(*) from webhook_deliveries where status = 'DELIVERED')::int as delivered`,
      );
      const row = r.rows[0];
      if (row && row.completed >= accepted && row.delivered >= accepted && receiver.unique() >= accepted) break;
      if (Date.now() > doneDeadline)
        throw new Error(`recovery: not finished: ${JSON.stringify(row)}, received ${receiver.unique()}`);
      await sleep(100);
    }
    const statuses = await client.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from tasks group by status',
    );
    const completed = statuses.rows.find((s) => s.status === 'COMPLETED')?.n ?? 0;
    const finished = new Map<string, number>();
    for (const tap of taps) for (const [id, k] of tap.finished) finished.set(id, (finished.get(id) ?? 0) + k);
    const completedTwice = [...finished].filter(([, k]) => k > 1).map(([id]) => id);
    const counts = receiver.counts();
    const duplicated = [...counts].filter(([, k]) => k > 1).map(([id]) => id);
    const allowed = new Set(inFlight);
    const strayDuplicates = duplicated.filter((id) => !allowed.has(id));
    const sweep = taps[v === 0 ? 1 : 0].released.find((x) => x.deadWorkers.includes(deadId));
    if (sweep)
      log(
        `  round ${round}: the live worker ${liveId} logged 'dead workers released' ` +
          `${((sweep.time - killedAtEpoch) / 1000).toFixed(2)} s after the kill ` +
          `(requeued ${sweep.requeued}, deliveries ${sweep.deliveries})`,
      );
    return {
      tasksBack,
      slotsFree,
      slotsTaken,
      deliveriesReleased,
      redelivered,
      sweepLogged: sweep ? (sweep.time - killedAtEpoch) / 1000 : Number.NaN,
      heldTasks,
      heldSending,
      heldStarted: atKill.started.length,
      heldReceived,
      duplicateDeliveries: receiver.duplicates(),
      strayDuplicates,
      completedTwice,
      integrity: [
        {
          scenario: `recovery round ${round}: tasks (duplicates: completed twice)`,
          expected: n,
          observed: completed,
          failedRequests: n - accepted,
          lost: n - completed,
          duplicates: completedTwice.length,
        },
        {
          scenario: `recovery round ${round}: webhooks (duplicates: deliveries beyond one per task)`,
          expected: n,
          observed: receiver.unique(),
          failedRequests: n - accepted,
          lost: n - receiver.unique(),
          duplicates: receiver.duplicates(),
        },
      ],
    };
  } finally {
    if (connected) await client.end().catch(() => undefined);
    await Promise.all(children.map((c) => c.stop()));
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  }
}

/** The scheduler settings the workers run with: the defaults (config/default.json), which the bench leaves alone. */
function schedulerDefaults(): { livenessMs: number; leaseMs: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-bench-recovery-config-'));
  try {
    const s = loadServiceConfig(
      loadSettings({ AEQ_DATA_DIR: dir, AEQ_CONFIG: writeBenchConfig(dir, ENGINE_CONCURRENCY) }),
    ).scheduler;
    return { livenessMs: s.livenessMs, leaseMs: s.leaseMs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `cfg.rounds` rounds of the kill; every figure is the median over them, with each round listed. */
export async function runRecoveryScenario(cfg: BenchConfig, log: (s: string) => void): Promise<ScenarioResult> {
  const n = cfg.recoveryTasks;
  const { livenessMs, leaseMs } = schedulerDefaults();
  const runs: RecoveryRun[] = [];
  for (let round = 1; round <= cfg.rounds; round++) {
    log(
      `recovery round ${round}/${cfg.rounds}: ${n} tasks of ${TASK_DELAY_MS} ms on average with webhooks, ` +
        `1 API process and 2 workers, kill -9 of one (livenessMs ${livenessMs}, leaseMs ${leaseMs})`,
    );
    const r = await recoveryOnce(n, log, round);
    runs.push(r);
    log(
      `  round ${round}: tasks back ${r.tasksBack.toFixed(2)} s, slots free ${r.slotsFree.toFixed(2)} s, ` +
        `taken by the live worker ${r.slotsTaken.toFixed(2)} s, deliveries released ` +
        `${r.deliveriesReleased.toFixed(2)} s, in-flight ones delivered ${r.redelivered.toFixed(2)} s; ` +
        `duplicate deliveries ${r.duplicateDeliveries} (of ${r.heldSending} in flight), not in flight ` +
        `${r.strayDuplicates.length}, completed twice ${r.completedTwice.length}`,
    );
    if (r.strayDuplicates.length > 0)
      log(`  round ${round}: DUPLICATE DELIVERIES NOT IN FLIGHT AT THE KILL: ${r.strayDuplicates.join(', ')}`);
    if (r.completedTwice.length > 0) log(`  round ${round}: TASKS COMPLETED TWICE: ${r.completedTwice.join(', ')}`);
  }
  const mean = (f: (r: RecoveryRun) => number) => runs.reduce((a, r) => a + f(r), 0) / runs.length;
  log(
    `recovery: at the kill, SENDING under the dead worker ${mean((r) => r.heldSending).toFixed(1)} on average, ` +
      `of which ${mean((r) => r.heldStarted).toFixed(1)} with an attempt started and ` +
      `${mean((r) => r.heldReceived).toFixed(1)} already received`,
  );
  const scenario =
    `recovery: kill -9 of 1 of 2 worker processes (PostgreSQL, ${n.toLocaleString('en-US')} tasks of ` +
    `${TASK_DELAY_MS / 2}-${TASK_DELAY_MS * 1.5} ms with webhooks answered after ${RECEIVER_DELAY_MS} ms, ` +
    `engine concurrency ${ENGINE_CONCURRENCY}; ` +
    `livenessMs ${livenessMs}, leaseMs ${leaseMs}, defaults)`;
  const within = { op: '<', value: 10, unit: 's' } as const;
  const none = (unit: string) => ({ op: '<', value: 1, unit }) as const;
  const col = (f: (r: RecoveryRun) => number) => runs.map(f);
  const figures = [
    figure({
      scenario,
      metric: 'its tasks back: no PROCESSING row of the dead worker (s after the kill)',
      unit: 's',
      runs: col((r) => r.tasksBack),
      target: within,
    }),
    figure({
      scenario,
      metric: "its engine slots free: the engine's PROCESSING rows are the live worker's (the same poll as the tasks)",
      unit: 's',
      runs: col((r) => r.slotsFree),
      target: within,
    }),
    figure({
      scenario,
      metric: 'its engine slots in use again: the live worker holds more than the limit minus what the dead one held',
      unit: 's',
      runs: col((r) => r.slotsTaken),
    }),
    figure({
      scenario,
      metric: 'its deliveries released: no SENDING row held by the dead worker',
      unit: 's',
      runs: col((r) => r.deliveriesReleased),
      target: within,
    }),
    figure({
      scenario,
      metric: 'its in-flight deliveries DELIVERED again',
      unit: 's',
      runs: col((r) => r.redelivered),
    }),
    figure({
      scenario,
      metric: "the live worker's 'dead workers released' log line (its clock)",
      unit: 's',
      runs: col((r) => r.sweepLogged),
    }),
    figure({
      scenario,
      metric: 'tasks the dead worker held at the kill',
      unit: 'tasks',
      runs: col((r) => r.heldTasks),
    }),
    figure({
      scenario,
      metric: 'deliveries SENDING under the dead worker at the kill',
      unit: 'deliveries',
      runs: col((r) => r.heldSending),
    }),
    figure({
      scenario,
      metric: 'of those, already received by the receiver just after the kill (each may be received twice)',
      unit: 'deliveries',
      runs: col((r) => r.heldReceived),
    }),
    figure({
      scenario,
      metric: 'duplicate deliveries (received beyond one per task)',
      unit: 'deliveries',
      runs: col((r) => r.duplicateDeliveries),
    }),
    figure({
      scenario,
      metric: 'duplicate deliveries of tasks not SENDING under the dead worker at the kill',
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
    `recovery medians: tasks back ${median(col((r) => r.tasksBack)).toFixed(2)} s, deliveries released ` +
      `${median(col((r) => r.deliveriesReleased)).toFixed(2)} s`,
  );
  return { figures, integrity: runs.flatMap((r) => r.integrity) };
}

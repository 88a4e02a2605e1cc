import type { Kysely } from 'kysely';
import {
  monitorSpecOf,
  type MonitorRecord,
  type MonitorRunRecord,
  type MonitorRunResult,
  type MonitorRunStatus,
  type MonitorRunTrigger,
  type MonitorSpec,
  type MonitorStatus,
  withDefaults,
} from '../domain/monitor.js';
import type { TaskRecord } from '../domain/task.js';
import { enqueueDelivery } from './outbox/deliveries.js';
import type { Monitors, RunTask } from './ports.js';

type Args<K extends keyof Monitors> = Parameters<Monitors[K]>[0];
import type { Database, MonitorRunsTable, MonitorsTable } from './schema.js';

/**
 * Monitors of an account: created, read, listed, edited and deleted (with their runs). Another account's monitor is
 * read no further than an unknown one.
 */

function fromRow(r: MonitorsTable): MonitorRecord {
  const spec = withDefaults(JSON.parse(r.spec) as MonitorSpec);
  return {
    ...spec,
    name: r.name,
    id: r.id,
    accountId: r.account_id,
    status: r.status as MonitorStatus,
    nextRunAt: r.next_run_at === null ? null : Number(r.next_run_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toRow(m: MonitorRecord): MonitorsTable {
  return {
    id: m.id,
    account_id: m.accountId,
    name: m.name,
    spec: JSON.stringify(monitorSpecOf(m)),
    status: m.status,
    next_run_at: m.nextRunAt,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

export async function insertMonitor(db: Kysely<Database>, m: MonitorRecord): Promise<void> {
  await db.insertInto('monitors').values(toRow(m)).execute();
}

export async function getMonitor(
  db: Kysely<Database>,
  { id, accountId }: Args<'get'>,
): Promise<MonitorRecord | undefined> {
  const r = await db
    .selectFrom('monitors')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return r ? fromRow(r) : undefined;
}

/** The account's monitors in creation order (ids are time-ordered), `limit` after the id `after`. */
export async function listMonitors(db: Kysely<Database>, a: Args<'list'>): Promise<MonitorRecord[]> {
  const { accountId, limit } = a;
  const after = a.after === null ? null : a.after.toLowerCase();
  let q = db.selectFrom('monitors').selectAll().where('account_id', '=', accountId);
  if (after !== null) q = q.where('id', '>', after);
  return (await q.orderBy('id').limit(limit).execute()).map(fromRow);
}

/** Writes an edited monitor (the whole row); false when it is gone. */
export async function updateMonitor(db: Kysely<Database>, m: MonitorRecord): Promise<boolean> {
  const { id, account_id, created_at, ...rest } = toRow(m);
  const r = await db
    .updateTable('monitors')
    .set(rest)
    .where('id', '=', id)
    .where('account_id', '=', account_id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes a monitor and its runs; false when there was none. */
export async function deleteMonitor(db: Kysely<Database>, { id, accountId }: Args<'delete'>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .deleteFrom('monitors')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) return false;
    const runs = trx.selectFrom('monitor_runs').select('id').where('monitor_id', '=', id);
    await trx.deleteFrom('webhook_attempts').where('task_id', 'in', runs).execute();
    await trx.deleteFrom('webhook_deliveries').where('task_id', 'in', runs).execute();
    await trx.deleteFrom('monitor_runs').where('monitor_id', '=', id).execute();
    return true;
  });
}

/** A run's row, without its saved results unless they were selected. */
type RunRow = Omit<MonitorRunsTable, 'results'> & { results?: string | null };

function runFromRow(r: RunRow): MonitorRunRecord {
  return {
    id: r.id,
    monitorId: r.monitor_id,
    accountId: r.account_id,
    slotAt: Number(r.slot_at),
    status: r.status as MonitorRunStatus,
    batchId: r.batch_id ?? '',
    spec: withDefaults(JSON.parse(r.spec) as MonitorSpec),
    tasks: Number(r.tasks),
    trigger: r.run_trigger as MonitorRunTrigger,
    results: r.results === null || r.results === undefined ? null : (JSON.parse(r.results) as MonitorRunResult[]),
    counts:
      r.completed_tasks === null || r.failed_tasks === null
        ? null
        : { completed: Number(r.completed_tasks), failed: Number(r.failed_tasks) },
    metrics: r.metrics === null ? null : (JSON.parse(r.metrics) as Record<string, unknown>),
    createdAt: Number(r.created_at),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
  };
}

/** Active monitors whose next scheduled time has come, earliest first. */
export async function dueMonitors(db: Kysely<Database>, { now, limit }: Args<'due'>): Promise<MonitorRecord[]> {
  const rows = await db
    .selectFrom('monitors')
    .selectAll()
    .where('status', '=', 'active')
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
  return rows.map(fromRow);
}

/**
 * Takes a monitor's slot, in one transaction: the monitor moves to its next time only if it is as it was read
 * (still active, same next time, not edited since), and only then the run row goes in; the row is unique per
 * monitor and scheduled time, so a restart or two processes never make two. False when the slot was not taken.
 */
export async function claimMonitorSlot(
  db: Kysely<Database>,
  { read, run, nextRunAt }: Args<'claimSlot'>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('monitors')
      .set({ next_run_at: nextRunAt })
      .where('id', '=', read.id)
      .where('status', '=', 'active')
      .where('next_run_at', '=', read.nextRunAt)
      .where('updated_at', '=', read.updatedAt)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return false;
    return insertRun(trx, run);
  });
}

/**
 * Starts a run outside the schedule (run now), in one transaction: the monitor's row is written first (to itself),
 * which takes its row lock on PostgreSQL and the write lock on SQLite, so two requests at once are serialised; the
 * run goes in only when the monitor has no run still starting or running. The schedule (`next_run_at`) is left as
 * it is. `in-progress` when a run is open, `gone` when the monitor is not there.
 */
export async function startMonitorRun(
  db: Kysely<Database>,
  run: MonitorRunRecord,
): Promise<'started' | 'in-progress' | 'gone'> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx
      .updateTable('monitors')
      .set((eb) => ({ status: eb.ref('status') }))
      .where('id', '=', run.monitorId)
      .where('account_id', '=', run.accountId)
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) === 0) return 'gone';
    const open = await trx
      .selectFrom('monitor_runs')
      .select('id')
      .where('monitor_id', '=', run.monitorId)
      .where('status', 'in', ['starting', 'running'])
      .executeTakeFirst();
    if (open) return 'in-progress';
    return (await insertRun(trx, run)) ? 'started' : 'in-progress';
  });
}

/** Inserts a run unless its monitor has one for the same slot; whether it went in. */
async function insertRun(trx: Kysely<Database>, run: MonitorRunRecord): Promise<boolean> {
  const made = await trx
    .insertInto('monitor_runs')
    .values(runRow(run))
    .onConflict((oc) => oc.columns(['monitor_id', 'slot_at']).doNothing())
    .returning('id')
    .execute();
  return made.length > 0;
}

/** A new run's row (no results or figures yet). */
function runRow(run: MonitorRunRecord): MonitorRunsTable {
  return {
    id: run.id,
    monitor_id: run.monitorId,
    account_id: run.accountId,
    slot_at: run.slotAt,
    status: run.status,
    batch_id: run.batchId,
    spec: JSON.stringify(run.spec),
    tasks: run.tasks,
    results: null,
    metrics: null,
    completed_tasks: null,
    failed_tasks: null,
    created_at: run.createdAt,
    completed_at: null,
    run_trigger: run.trigger,
  };
}

/**
 * Running runs the scheduler should look at, oldest first: those whose batch has completed, or that are older
 * than `staleBefore` (to be ended with what they have before their tasks pass their retention). Runs still waiting
 * on their tasks are not read, so however many there are they never hide one that can end.
 */
export async function runsToFinish(
  db: Kysely<Database>,
  { staleBefore, limit }: Args<'runsToFinish'>,
): Promise<MonitorRunRecord[]> {
  const rows = await db
    .selectFrom('monitor_runs as r')
    .leftJoin('batches as b', 'b.id', 'r.batch_id')
    .selectAll('r')
    .where('r.status', '=', 'running')
    .where((eb) =>
      eb.or([eb('b.completed_at', 'is not', null), eb('b.id', 'is', null), eb('r.created_at', '<', staleBefore)]),
    )
    .orderBy('r.created_at')
    .limit(limit)
    .execute();
  return rows.map(runFromRow);
}

/** A monitor's completed runs' figures within [from, to), oldest first: the series, without the saved answers. */
export async function runMetrics(
  db: Kysely<Database>,
  { monitorId, accountId, ...o }: Args<'runMetrics'>,
): Promise<Array<{ id: string; slotAt: number; metrics: Record<string, unknown> }>> {
  let q = db
    .selectFrom('monitor_runs')
    .select(['id', 'slot_at', 'metrics'])
    .where('monitor_id', '=', monitorId)
    .where('account_id', '=', accountId)
    .where('status', '=', 'completed');
  if (o.from !== undefined) q = q.where('slot_at', '>=', o.from);
  if (o.to !== undefined) q = q.where('slot_at', '<', o.to);
  const rows =
    o.latest === undefined
      ? await q.orderBy('slot_at').execute()
      : (await q.orderBy('slot_at', 'desc').limit(o.latest).execute()).reverse();
  return rows.map((r) => ({
    id: r.id,
    slotAt: Number(r.slot_at),
    metrics: r.metrics === null ? {} : (JSON.parse(r.metrics) as Record<string, unknown>),
  }));
}

/** Runs in a state, oldest first (the scheduler's passes: `starting` ones get their tasks, `running` ones end). */
export async function runsIn(db: Kysely<Database>, { status, limit }: Args<'runsIn'>): Promise<MonitorRunRecord[]> {
  const rows = await db
    .selectFrom('monitor_runs')
    .selectAll()
    .where('status', '=', status)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map(runFromRow);
}

/** Moves a run on, only from the state it is expected in; false when another process did it first. */
export async function advanceRun(db: Kysely<Database>, { id, from, to, event }: Args<'advanceRun'>): Promise<boolean> {
  const set: Partial<MonitorRunsTable> = {};
  if (to.status) set.status = to.status;
  if (to.tasks !== undefined) set.tasks = to.tasks;
  if (to.results !== undefined) {
    set.results = to.results === null ? null : JSON.stringify(to.results);
    // Counted as they are saved, so that a listing of runs never reads them for their progress.
    const completed = to.results?.filter((r) => r.status === 'COMPLETED').length ?? null;
    set.completed_tasks = completed;
    set.failed_tasks = to.results === null || completed === null ? null : to.results.length - completed;
  }
  if (to.metrics !== undefined) set.metrics = to.metrics === null ? null : JSON.stringify(to.metrics);
  if (to.completedAt !== undefined) set.completed_at = to.completedAt;
  // The run's event goes to the outbox in the same transaction that ends the run: a crash loses neither.
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('monitor_runs')
      .set(set)
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    if (event) await enqueueDelivery(trx, id, event.webhook, event.now);
    return true;
  });
}

/** Every column of a run but its saved results (about 360 KB of JSON for a run of 400 tasks). */
const RUN_COLUMNS = [
  'id',
  'monitor_id',
  'account_id',
  'slot_at',
  'status',
  'batch_id',
  'spec',
  'tasks',
  'metrics',
  'completed_tasks',
  'failed_tasks',
  'created_at',
  'completed_at',
  'run_trigger',
] as const;

/**
 * A monitor's runs, newest scheduled time first, optionally within [from, to); their saved results only with
 * `results` (else `results` is null and `counts` gives a completed run's progress). Reading them for every run made
 * a listing of 30 runs of 400 tasks take 130 ms on SQLite and 210 ms on PostgreSQL, nearly all of it parsing 10 MB
 * of answers (docs/benchmarks.md, "Monitors at scale").
 */
export async function monitorRuns(
  db: Kysely<Database>,
  { monitorId, accountId, ...o }: Args<'runs'>,
): Promise<MonitorRunRecord[]> {
  let q = db
    .selectFrom('monitor_runs')
    .select(RUN_COLUMNS)
    .$if(o.results === true, (b) => b.select('results'))
    .where('monitor_id', '=', monitorId)
    .where('account_id', '=', accountId);
  if (o.from !== undefined) q = q.where('slot_at', '>=', o.from);
  if (o.to !== undefined) q = q.where('slot_at', '<', o.to);
  return (await q.orderBy('slot_at', 'desc').limit(o.limit).execute()).map(runFromRow);
}

/**
 * The finished tasks of a run's batch, in batch order, in one read: the batch's id range (on the tasks' id index,
 * as store/batches.ts reads a batch) narrowed to its own tasks. A run's end read them one by one before, 400
 * lookups for the scale monitor's run: 620 ms a run on PostgreSQL, 100 ms on SQLite (docs/benchmarks.md,
 * "Monitors at scale").
 */
export async function runTasks(db: Kysely<Database>, { batchId, accountId }: Args<'runTasks'>): Promise<RunTask[]> {
  const b = await db
    .selectFrom('batches')
    .select(['first_task_id', 'last_task_id'])
    .where('id', '=', batchId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!b || b.first_task_id === null || b.last_task_id === null) return [];
  const rows = await db
    .selectFrom('tasks')
    .select(['id', 'task_type', 'status', 'country', 'payload', 'result', 'error', 'batch_index'])
    .where('id', '>=', b.first_task_id)
    .where('id', '<=', b.last_task_id)
    .where('batch_id', '=', batchId)
    .where('status', 'in', ['COMPLETED', 'FAILED'])
    .orderBy('batch_index')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    taskType: r.task_type as TaskRecord['taskType'],
    status: r.status as TaskRecord['status'],
    country: r.country,
    payload: JSON.parse(r.payload) as unknown,
    result: r.result === null ? undefined : (JSON.parse(r.result) as unknown),
    error: r.error,
    batchIndex: r.batch_index === null ? null : Number(r.batch_index),
  }));
}

/** Deletes runs scheduled before `before` (the monitor data retention), at most `limit`; returns how many. */
export async function deleteOldRuns(db: Kysely<Database>, { before, limit }: Args<'deleteOldRuns'>): Promise<number> {
  const ids = await db.selectFrom('monitor_runs').select('id').where('slot_at', '<', before).limit(limit).execute();
  if (ids.length === 0) return 0;
  const runIds = ids.map((r) => r.id);
  // A run's signal event (its webhook delivery, keyed by the run's id) goes with it.
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webhook_attempts').where('task_id', 'in', runIds).execute();
    await trx.deleteFrom('webhook_deliveries').where('task_id', 'in', runIds).execute();
    await trx.deleteFrom('monitor_runs').where('id', 'in', runIds).execute();
  });
  return ids.length;
}

import type { Kysely } from 'kysely';
import type {
  MonitorRecord,
  MonitorRunRecord,
  MonitorRunResult,
  MonitorRunStatus,
  MonitorSpec,
  MonitorStatus,
} from '../domain/monitor.js';
import type { Database, MonitorRunsTable, MonitorsTable } from './schema.js';

/**
 * Monitors of an account: created, read, listed, edited and deleted (with their runs). Another account's monitor is
 * read no further than an unknown one.
 */

function fromRow(r: MonitorsTable): MonitorRecord {
  const spec = JSON.parse(r.spec) as MonitorSpec;
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
  const { id, accountId, status, nextRunAt, createdAt, updatedAt, ...spec } = m;
  return {
    id,
    account_id: accountId,
    name: spec.name,
    spec: JSON.stringify(spec),
    status,
    next_run_at: nextRunAt,
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

export async function insertMonitor(db: Kysely<Database>, m: MonitorRecord): Promise<void> {
  await db.insertInto('monitors').values(toRow(m)).execute();
}

export async function getMonitor(
  db: Kysely<Database>,
  id: string,
  accountId: string,
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
export async function listMonitors(
  db: Kysely<Database>,
  accountId: string,
  after: string | null,
  limit: number,
): Promise<MonitorRecord[]> {
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
export async function deleteMonitor(db: Kysely<Database>, id: string, accountId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .deleteFrom('monitors')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) return false;
    await trx.deleteFrom('monitor_runs').where('monitor_id', '=', id).execute();
    return true;
  });
}

function runFromRow(r: MonitorRunsTable): MonitorRunRecord {
  return {
    id: r.id,
    monitorId: r.monitor_id,
    accountId: r.account_id,
    slotAt: Number(r.slot_at),
    status: r.status as MonitorRunStatus,
    batchId: r.batch_id ?? '',
    tasks: Number(r.tasks),
    results: r.results === null ? null : (JSON.parse(r.results) as MonitorRunResult[]),
    metrics: r.metrics === null ? null : (JSON.parse(r.metrics) as Record<string, unknown>),
    createdAt: Number(r.created_at),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
  };
}

/** Active monitors whose next scheduled time has come, earliest first. */
export async function dueMonitors(db: Kysely<Database>, now: number, limit: number): Promise<MonitorRecord[]> {
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
 * Takes a monitor's slot: its run row (unique per monitor and scheduled time, so two processes or a restart never
 * make two) and its next time, in one transaction. False when the slot already had its run.
 */
export async function claimMonitorSlot(
  db: Kysely<Database>,
  run: MonitorRunRecord,
  nextRunAt: number | null,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const made = await trx
      .insertInto('monitor_runs')
      .values({
        id: run.id,
        monitor_id: run.monitorId,
        account_id: run.accountId,
        slot_at: run.slotAt,
        status: run.status,
        batch_id: run.batchId,
        tasks: run.tasks,
        results: null,
        metrics: null,
        created_at: run.createdAt,
        completed_at: null,
      })
      .onConflict((oc) => oc.columns(['monitor_id', 'slot_at']).doNothing())
      .returning('id')
      .execute();
    await trx
      .updateTable('monitors')
      .set({ next_run_at: nextRunAt })
      .where('id', '=', run.monitorId)
      .where('status', '=', 'active')
      .execute();
    return made.length > 0;
  });
}

/** Runs in a state, oldest first (the scheduler's passes: `starting` ones get their tasks, `running` ones end). */
export async function runsIn(
  db: Kysely<Database>,
  status: MonitorRunStatus,
  limit: number,
): Promise<MonitorRunRecord[]> {
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
export async function advanceRun(
  db: Kysely<Database>,
  id: string,
  from: MonitorRunStatus,
  to: Partial<Pick<MonitorRunRecord, 'status' | 'results' | 'metrics' | 'completedAt'>>,
): Promise<boolean> {
  const set: Partial<MonitorRunsTable> = {};
  if (to.status) set.status = to.status;
  if (to.results !== undefined) set.results = to.results === null ? null : JSON.stringify(to.results);
  if (to.metrics !== undefined) set.metrics = to.metrics === null ? null : JSON.stringify(to.metrics);
  if (to.completedAt !== undefined) set.completed_at = to.completedAt;
  const r = await db
    .updateTable('monitor_runs')
    .set(set)
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A monitor's runs, newest scheduled time first, optionally within [from, to). */
export async function monitorRuns(
  db: Kysely<Database>,
  monitorId: string,
  accountId: string,
  o: { from?: number; to?: number; limit: number; before?: number },
): Promise<MonitorRunRecord[]> {
  let q = db
    .selectFrom('monitor_runs')
    .selectAll()
    .where('monitor_id', '=', monitorId)
    .where('account_id', '=', accountId);
  if (o.from !== undefined) q = q.where('slot_at', '>=', o.from);
  if (o.to !== undefined) q = q.where('slot_at', '<', o.to);
  if (o.before !== undefined) q = q.where('slot_at', '<', o.before);
  return (await q.orderBy('slot_at', 'desc').limit(o.limit).execute()).map(runFromRow);
}

/** Deletes runs scheduled before `before` (the monitor data retention), at most `limit`; returns how many. */
export async function deleteOldRuns(db: Kysely<Database>, before: number, limit: number): Promise<number> {
  const ids = await db.selectFrom('monitor_runs').select('id').where('slot_at', '<', before).limit(limit).execute();
  if (ids.length === 0) return 0;
  await db
    .deleteFrom('monitor_runs')
    .where(
      'id',
      'in',
      ids.map((r) => r.id),
    )
    .execute();
  return ids.length;
}

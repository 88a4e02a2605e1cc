import type { Kysely } from 'kysely';
import type { MonitorRecord, MonitorSpec, MonitorStatus } from '../domain/monitor.js';
import type { Database, MonitorsTable } from './schema.js';

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

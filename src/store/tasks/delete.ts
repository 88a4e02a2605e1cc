import type BetterSqlite3 from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { ID_AHEAD_MS, taskIdFloor } from '../../domain/task-id.js';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { FOLD_ONE_SQL, foldIntoDailyUsage } from '../usage.js';

/**
 * Deletes tasks with their webhook deliveries and attempts, folding the finished ones into the daily usage first
 * (store/usage.ts); returns how many tasks went.
 */
export async function deleteTasks(trx: Kysely<Database>, ids: string[]): Promise<number> {
  await foldIntoDailyUsage(trx, ids);
  await trx.deleteFrom('webhook_attempts').where('task_id', 'in', ids).execute();
  await trx.deleteFrom('webhook_deliveries').where('task_id', 'in', ids).execute();
  const r = await trx.deleteFrom('tasks').where('id', 'in', ids).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Tasks created before `before` among those whose ids are time-ordered (version 7, made by newTaskId). An id's time
 * is never earlier than its task's creation and, but for a burst of ids on a clock that stands still, at most
 * ID_AHEAD_MS later (domain/task-id.ts), so these tasks are at the start of the primary key, before the first id of
 * `before + ID_AHEAD_MS`; `created_at` makes the bound exact. An id that ran further ahead is swept by a later pass:
 * late, never skipped. PostgreSQL has no index on the creation time (postgres/migrations/031-lean-task-indexes.ts).
 * A random id of an older release may fall under the key bound too; it is still a task created before `before`.
 */
export function createdBeforeByKey(before: number) {
  return sql<boolean>`id < ${taskIdFloor(before + ID_AHEAD_MS)} and created_at < ${before}`;
}

/**
 * Tasks created before `before` whose ids are not time-ordered (the random ids of the releases before version-7
 * ids): PostgreSQL's partial index `tasks_unordered_created` holds these tasks only, under the same expression,
 * written out as a literal so that the planner can match it.
 */
export function unorderedCreatedBefore(before: number) {
  return sql<boolean>`substr(id, 15, 1) <> '7' and created_at < ${before}`;
}

/** The ids of at most `limit` tasks created before `before`, in key order (createdBeforeByKey). */
export function expiredTaskIdsQuery(db: Kysely<Database>, { before, limit }: { before: number; limit: number }) {
  return db.selectFrom('tasks').select('id').where(createdBeforeByKey(before)).orderBy('id').limit(limit);
}

/** The ids of at most `limit` tasks created before `before` without time-ordered ids, oldest first. */
export function expiredUnorderedTaskIdsQuery(
  db: Kysely<Database>,
  { before, limit }: { before: number; limit: number },
) {
  return db.selectFrom('tasks').select('id').where(unorderedCreatedBefore(before)).orderBy('created_at').limit(limit);
}

/**
 * PostgreSQL, for the rest of the transaction: the sweep's ids read in key order. Without statistics on the tasks (a
 * new database, or autovacuum off) the planner read the whole table and sorted it for each pass of the sweep; the
 * ordered scan of the key stops after `limit` rows. Two statements: a string of several runs only without parameters.
 */
export async function keyOrderScans(trx: Kysely<Database>): Promise<void> {
  await sql`set local enable_seqscan = off`.execute(trx);
  await sql`set local enable_bitmapscan = off`.execute(trx);
}

/**
 * The retention sweep: deletes tasks created before `before` (and their deliveries), at most `limit`: those with
 * time-ordered ids first, then any left with ids of another form.
 */
export function deleteExpired(
  db: Kysely<Database>,
  a: { before: number; limit: number },
  kind: Store['kind'],
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (kind === 'postgres') await keyOrderScans(trx);
    const ids = new Set((await expiredTaskIdsQuery(trx, a).execute()).map((r) => r.id));
    if (ids.size < a.limit) {
      const rest = await expiredUnorderedTaskIdsQuery(trx, { ...a, limit: a.limit - ids.size }).execute();
      for (const r of rest) ids.add(r.id);
    }
    if (ids.size === 0) return 0;
    return deleteTasks(trx, [...ids]);
  });
}

/** Embedded store: one task (usage folded first) and its delivery rows, prepared (an expired key taken over). */
export function prepareDeleteTask(db: BetterSqlite3.Database) {
  return {
    usage: db.prepare(FOLD_ONE_SQL),
    attempts: db.prepare('delete from webhook_attempts where task_id = ?'),
    delivery: db.prepare('delete from webhook_deliveries where task_id = ?'),
    task: db.prepare('delete from tasks where id = ?'),
  };
}

export function deleteTaskSqlite(s: ReturnType<typeof prepareDeleteTask>, id: string): void {
  s.usage.run(id);
  s.attempts.run(id);
  s.delivery.run(id);
  s.task.run(id);
}

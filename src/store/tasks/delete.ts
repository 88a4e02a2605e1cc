import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Deletes tasks with their webhook deliveries and attempts; returns how many tasks went. */
export async function deleteTasks(trx: Kysely<Database>, ids: string[]): Promise<number> {
  await trx.deleteFrom('webhook_attempts').where('task_id', 'in', ids).execute();
  await trx.deleteFrom('webhook_deliveries').where('task_id', 'in', ids).execute();
  const r = await trx.deleteFrom('tasks').where('id', 'in', ids).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The retention sweep: deletes tasks created before `before` (and their deliveries), at most `limit`. */
export function deleteExpired(db: Kysely<Database>, before: number, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = (
      await trx.selectFrom('tasks').select('id').where('created_at', '<', before).limit(limit).execute()
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    return deleteTasks(trx, ids);
  });
}

/** Embedded store: one task and its delivery rows, by prepared statements (an insert taking over an expired key). */
export function prepareDeleteTask(db: BetterSqlite3.Database) {
  return {
    attempts: db.prepare('delete from webhook_attempts where task_id = ?'),
    delivery: db.prepare('delete from webhook_deliveries where task_id = ?'),
    task: db.prepare('delete from tasks where id = ?'),
  };
}

export function deleteTaskSqlite(s: ReturnType<typeof prepareDeleteTask>, id: string): void {
  s.attempts.run(id);
  s.delivery.run(id);
  s.task.run(id);
}

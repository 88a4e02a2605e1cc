import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
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

/** The retention sweep: deletes tasks created before `before` (and their deliveries), at most `limit`. */
export function deleteExpired(
  db: Kysely<Database>,
  { before, limit }: { before: number; limit: number },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = (
      await trx.selectFrom('tasks').select('id').where('created_at', '<', before).limit(limit).execute()
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    return deleteTasks(trx, ids);
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

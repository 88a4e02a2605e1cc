import { sql, type Kysely } from 'kysely';
import { DAY_MS, type UsageRow } from './records.js';
import type { Database } from './schema.js';

/**
 * Usage per account, day (UTC, of the task's finish) and engine: tasks finished and credits charged. A finished
 * task counts from the tasks table while it is retained, then from usage_daily, into which the retention sweep (and
 * an insert that takes over an expired idempotency key) folds it in the transaction that deletes it: never both,
 * never neither.
 */
const DAY = sql.lit(DAY_MS);

/** Folds the finished tasks among `ids` into usage_daily; call it before deleting them, in the same transaction. */
export async function foldIntoDailyUsage(trx: Kysely<Database>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`insert into usage_daily (account_id, day, task_type, tasks, credits)
    select account_id, finished_at / ${DAY}, task_type, count(*), sum(coalesce(credits_charged, 0)) from tasks
    where id in (${sql.join(ids)}) and finished_at is not null group by account_id, finished_at / ${DAY}, task_type
    on conflict (account_id, day, task_type) do update set tasks = usage_daily.tasks + excluded.tasks,
      credits = usage_daily.credits + excluded.credits`.execute(trx);
}

/** Embedded store: the same fold for one task, as a prepared statement's text (run with the task id). */
export const FOLD_ONE_SQL = `insert into usage_daily (account_id, day, task_type, tasks, credits)
  select account_id, finished_at / ${DAY_MS}, task_type, 1, coalesce(credits_charged, 0) from tasks
  where id = ? and finished_at is not null
  on conflict (account_id, day, task_type) do update set tasks = usage_daily.tasks + excluded.tasks,
    credits = usage_daily.credits + excluded.credits`;

/** An account's usage from day `fromDay` to day `toDay` (both included), by day and engine, in day order. */
export async function usage(
  db: Kysely<Database>,
  { accountId, fromDay, toDay }: { accountId: string; fromDay: number; toDay: number },
): Promise<UsageRow[]> {
  const kept = await db
    .selectFrom('usage_daily')
    .select(['day', 'task_type', 'tasks', 'credits'])
    .where('account_id', '=', accountId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .execute();
  // Retained tasks: an account's finished tasks in the range (no index serves it; retention bounds the table).
  const live = await sql<{ day: number | string; task_type: string; tasks: number | string; credits: number | string }>`
    select finished_at / ${DAY} as day, task_type, count(*) as tasks, sum(coalesce(credits_charged, 0)) as credits
    from tasks where account_id = ${accountId} and finished_at >= ${fromDay * DAY_MS}
      and finished_at < ${(toDay + 1) * DAY_MS}
    group by finished_at / ${DAY}, task_type`.execute(db);
  const out = new Map<string, UsageRow>();
  for (const r of [...kept, ...live.rows]) {
    const day = Number(r.day);
    const key = `${day}\n${r.task_type}`;
    const row = out.get(key) ?? { day, taskType: r.task_type, tasks: 0, credits: 0 };
    row.tasks += Number(r.tasks);
    row.credits += Number(r.credits);
    out.set(key, row);
  }
  return [...out.values()].sort((a, b) => a.day - b.day || a.taskType.localeCompare(b.taskType));
}

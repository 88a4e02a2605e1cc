import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: /stats answers from counts, not from an aggregate over every retained task. The aggregate read the
 * whole table for each request (589 ms p50 for one account's figures among 1,000,000 tasks), so a tenant asking often
 * held the store's connections and CPU from everyone else. The embedded store keeps running counts by row triggers
 * (sqlite/migrations/014-account-counts.ts); here one row per count would be a row every claim and finish of every
 * process updates, so they would queue on its lock. Instead each statement that writes tasks or deliveries adds its
 * net change per account, engine and status as new rows of `status_count_deltas` (a statement trigger over its
 * transition tables: no row is updated, so writers never wait on each other), and one process at a time folds each
 * count's rows into one every few seconds (`foldStatusCounts`, store/stats.ts). A count is the sum of its rows.
 *
 * Transition tables cannot be named by a trigger on a column list, so the update triggers fire on every update, and
 * capture the statement's old and new rows whole (results included); one that changes no status (a heartbeat) adds
 * nothing. A TRUNCATE or a data-only restore of these tables bypasses the triggers: the counts must then be made
 * again as below. The folds delete rows every few seconds, so the table asks autovacuum for a vacuum early.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table status_count_deltas (
    scope text not null, task_type text not null, status text not null, n bigint not null)`.execute(db);
  await sql`create index status_count_deltas_scope on status_count_deltas (scope)`.execute(db);
  await sql`alter table status_count_deltas set (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000,
    autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 1000)`.execute(db);
  for (const [table, scope, type] of [
    ['tasks', 'task', 'task_type'],
    ['webhook_deliveries', 'delivery', "''"],
  ] as const) {
    const fn = `aeq_count_${table}`;
    const rows = (from: string, by: string) =>
      `select '${scope}:' || account_id as scope, ${type} as task_type, status, ${by} as n from ${from}`;
    await sql
      .raw(
        `create function ${fn}() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then
            insert into status_count_deltas (scope, task_type, status, n)
              select scope, task_type, status, sum(n) from (${rows('new_rows', '1')}) d group by 1, 2, 3;
          elsif tg_op = 'DELETE' then
            insert into status_count_deltas (scope, task_type, status, n)
              select scope, task_type, status, sum(n) from (${rows('old_rows', '-1')}) d group by 1, 2, 3;
          else
            insert into status_count_deltas (scope, task_type, status, n)
              select scope, task_type, status, sum(n)
              from (${rows('new_rows', '1')} union all ${rows('old_rows', '-1')}) d
              group by 1, 2, 3 having sum(n) <> 0;
          end if;
          return null;
        end $$`,
      )
      .execute(db);
    for (const [event, referencing] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ] as const)
      await sql
        .raw(
          `create trigger ${table}_count_${event} after ${event} on ${table} referencing ${referencing}
          for each statement execute function ${fn}()`,
        )
        .execute(db);
  }
  // The counts of what is there now: the triggers above count every write committed after this migration's.
  await sql`insert into status_count_deltas (scope, task_type, status, n)
    select 'task:' || account_id, task_type, status, count(*) from tasks
    group by account_id, task_type, status`.execute(db);
  await sql`insert into status_count_deltas (scope, task_type, status, n)
    select 'delivery:' || account_id, '', status, count(*) from webhook_deliveries
    group by account_id, status`.execute(db);
}

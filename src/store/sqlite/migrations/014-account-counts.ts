import { sql, type Kysely } from 'kysely';

/**
 * Embedded store only: the running counts of 005-status-counts.ts kept per account, so that /stats answers the
 * caller's own account from a few rows. Scopes become `task:<account id>` and `delivery:<account id>`; the figures
 * of every account (/internal/stats) add them up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'tasks_count_update',
    'tasks_count_delete',
    'webhook_deliveries_count_insert',
    'webhook_deliveries_count_update',
    'webhook_deliveries_count_delete',
  ])
    await sql.raw(`drop trigger if exists ${t}`).execute(db);
  const bump = (scope: 'task' | 'delivery', row: 'new' | 'old', by: 1 | -1) =>
    `insert into status_counts (scope, task_type, status, n) values ('${scope}:' || ${row}.account_id, ` +
    `${scope === 'task' ? `${row}.task_type` : "''"}, ${row}.status, ${by})
       on conflict (scope, task_type, status) do update set n = n + (${by});`;
  for (const [scope, table] of [
    ['task', 'tasks'],
    ['delivery', 'webhook_deliveries'],
  ] as const) {
    // New tasks are counted by the store, once per account and engine per insert (src/store/tasks/insert.ts).
    if (table !== 'tasks')
      await sql
        .raw(`create trigger ${table}_count_insert after insert on ${table} begin ${bump(scope, 'new', 1)} end`)
        .execute(db);
    await sql
      .raw(
        `create trigger ${table}_count_update after update of status on ${table} when old.status <> new.status ` +
          `begin ${bump(scope, 'old', -1)} ${bump(scope, 'new', 1)} end`,
      )
      .execute(db);
    await sql
      .raw(`create trigger ${table}_count_delete after delete on ${table} begin ${bump(scope, 'old', -1)} end`)
      .execute(db);
  }
  await sql`delete from status_counts`.execute(db);
  await sql`insert into status_counts (scope, task_type, status, n) select 'task:' || account_id, task_type, status,
    count(*) from tasks group by account_id, task_type, status`.execute(db);
  await sql`insert into status_counts (scope, task_type, status, n) select 'delivery:' || account_id, '', status,
    count(*) from webhook_deliveries group by account_id, status`.execute(db);
}

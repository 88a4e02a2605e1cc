import { sql, type Kysely } from 'kysely';

/**
 * Embedded store only: running counts of tasks per (engine, status) and of deliveries per status,
 * kept by triggers, so `/stats` reads a few rows instead of counting a million. Triggers keep them
 * exact for every status change and delete, by any writer (another process on the same file, the
 * shared Kysely code); task inserts, which only the store makes, are counted by it in the same
 * transaction.
 * PostgreSQL keeps counting with an aggregate: a counter row written by every submit would
 * serialise concurrent API processes on one row lock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table status_counts (
    scope text not null,
    task_type text not null,
    status text not null,
    n integer not null,
    primary key (scope, task_type, status)
  ) without rowid`.execute(db);
  const bump = (scope: string, row: 'new' | 'old', by: 1 | -1, typeColumn: string) =>
    `insert into status_counts (scope, task_type, status, n) ` +
    `values ('${scope}', ${typeColumn === '' ? "''" : `${row}.${typeColumn}`}, ${row}.status, ${by})
       on conflict (scope, task_type, status) do update set n = n + (${by});`;
  for (const [scope, table, typeColumn] of [
    ['task', 'tasks', 'task_type'],
    ['delivery', 'webhook_deliveries', ''],
  ] as const) {
    // New tasks are counted by the store, once per engine per insert (src/store/tasks/insert.ts): a
    // row trigger here cost a third of a 500-task batch insert.
    if (table !== 'tasks') {
      await sql
        .raw(
          `create trigger ${table}_count_insert after insert ` +
            `on ${table} begin ${bump(scope, 'new', 1, typeColumn)} end`,
        )
        .execute(db);
    }
    await sql
      .raw(
        `create trigger ${table}_count_update after update of status on ${table} when old.status <> new.status ` +
          `begin ${bump(scope, 'old', -1, typeColumn)} ${bump(scope, 'new', 1, typeColumn)} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_count_delete after delete on ${table} begin ${bump(scope, 'old', -1, typeColumn)} end`,
      )
      .execute(db);
  }
  await sql`insert into status_counts (scope, task_type, status, n) select 'task', task_type, status, count(*)
    from tasks group by task_type, status`.execute(db);
  await sql`insert into status_counts (scope, task_type, status, n) select 'delivery', '', status, count(*)
    from webhook_deliveries group by status`.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: task ids compare byte by byte (collation "C"), as JavaScript and SQLite compare them. A batch finds
 * its tasks in the range of their ids (store/batches.ts), with bounds taken in JavaScript; under a collation with
 * contractions (Danish and Norwegian read "aa" as one letter after "z") a time-ordered id range would skip tasks.
 * Rebuilds the tasks' primary key once (the table holds one retention window).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tasks alter column id type text collate "C"`.execute(db);
  await sql`alter table batches alter column first_task_id type text collate "C"`.execute(db);
  await sql`alter table batches alter column last_task_id type text collate "C"`.execute(db);
}

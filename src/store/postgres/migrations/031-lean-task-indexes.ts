import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: two indexes of `tasks` that no hot statement reads go, and a partial index for the few tasks whose
 * ids are not time-ordered takes the sweep's part of the first. A claim and a finish change the task's
 * status, which the partial indexes name, so PostgreSQL writes each of them as a new row version with an entry in
 * every index of the table: with these two, nine index entries per task (submit, claim, finish), without them five.
 *
 * - `tasks_created` (created_at) served the retention sweep only. Task ids are time-ordered (domain/task-id.ts), so
 *   the sweep reads the tasks created before its bound from the start of the primary key (store/tasks/delete.ts).
 *   Tasks of the releases before time-ordered ids have random (version 4) ids anywhere in the key; they are found by
 *   their creation time in `tasks_unordered_created`, which holds only the tasks whose id is not of version 7: a new
 *   task never enters it, and it empties as the sweep deletes them.
 * - `tasks_lease` (lease_expires_at of PROCESSING tasks) served the lease reaper only. The PROCESSING tasks are few
 *   (at most the engines' concurrency) and `tasks_running` holds every one of them, so the reaper reads that index
 *   and checks each lease on its row. A heartbeat, which moves only the lease's expiry, is then a heap-only update.
 *
 * Measured: docs/benchmarks.md, "Lean task indexes". The embedded store keeps both: its rows are keyed by rowid, and
 * its writes are not the limit there. While processes of the release before run beside migrated ones, their sweep
 * reads the whole table (it looks by creation time): an upgrade replaces them all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index tasks_unordered_created on tasks (created_at) where substr(id, 15, 1) <> '7'`.execute(db);
  await sql`drop index if exists tasks_created`.execute(db);
  await sql`drop index if exists tasks_lease`.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * Most retained tasks are terminal, yet the claim and lease indexes held every task: each submit and
 * each finish paid for entries no query reads. Partial indexes hold only the tasks a claim (QUEUED),
 * the concurrency count and the lease reaper (PROCESSING) look at. Queries must name the status as a
 * literal for the planner to choose them (src/store/tasks/status-literals.ts, and the statements written out in full).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tasks_claim').execute();
  await db.schema.dropIndex('tasks_lease').execute();
  await db.schema
    .createIndex('tasks_claim')
    .on('tasks')
    .columns(['task_type', 'sort_key'])
    .where(sql.ref('status'), '=', 'QUEUED')
    .execute();
  await db.schema
    .createIndex('tasks_running')
    .on('tasks')
    .column('task_type')
    .where(sql.ref('status'), '=', 'PROCESSING')
    .execute();
  await db.schema
    .createIndex('tasks_lease')
    .on('tasks')
    .column('lease_expires_at')
    .where(sql.ref('status'), '=', 'PROCESSING')
    .execute();
}

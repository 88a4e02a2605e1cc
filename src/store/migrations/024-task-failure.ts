import type { Kysely } from 'kysely';

/**
 * Why a task's last attempt failed (src/domain/task-failure.ts), as JSON text beside the contract's `error` string:
 * written with each retry and with the terminal state, so polling after a restart shows it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('failure', 'text').execute();
}

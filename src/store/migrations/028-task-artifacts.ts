import type { Kysely } from 'kysely';

/**
 * The artefacts a task kept (src/domain/artifact.ts), as a JSON list beside its result: written by the terminal write
 * that finishes the task, in the same statement, after their files are in place, so a finished task never names a
 * file that is not there; and deleted with the row by the retention sweep. Null when it kept none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('artifacts', 'text').execute();
}

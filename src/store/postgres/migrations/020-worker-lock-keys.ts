import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the keys of the workers' liveness locks (store/workers/liveness.ts), one per registration, never
 * reused, so a dead worker's key cannot be held by a live one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence aeq_worker_keys`.execute(db);
}

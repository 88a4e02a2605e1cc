import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: the one-lease-per-call function of 008-pool-slots.ts, superseded by the batched
 * aeq_acquire_pool_slots of 022-pool-slots-batch.ts and called by nothing since: dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists aeq_acquire_pool_slot(text, text, integer, bigint, bigint)`.execute(db);
}

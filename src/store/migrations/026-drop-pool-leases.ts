import type { Kysely } from 'kysely';

/**
 * The ledger of pool leases made by 002-pool-leases.ts was read by nobody once PostgreSQL kept its leases as slots
 * (postgres/migrations/008-pool-slots.ts) and the embedded store kept them in process: dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pool_leases').ifExists().execute();
}

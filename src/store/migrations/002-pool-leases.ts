import type { Kysely } from 'kysely';

/** Leases of exit addresses and accounts, shared by every worker process (scale-out). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pool_leases')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pool_leases_resource')
    .on('pool_leases')
    .columns(['resource_id', 'expires_at'])
    .execute();
}

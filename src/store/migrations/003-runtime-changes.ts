import type { Kysely } from 'kysely';

/**
 * Operator changes made through /internal/* (pool resources added, removed, disabled; engines
 * paused), one row per resource or engine, so every process applies them and they survive restarts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('runtime_changes')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

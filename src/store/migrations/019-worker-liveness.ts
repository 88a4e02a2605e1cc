import type { Kysely } from 'kysely';

/**
 * Worker liveness (store/workers/liveness.ts): a row per registered worker process, and the holder of each claimed
 * webhook delivery, so that what a dead worker held (its tasks, by `tasks.worker_id`, and its deliveries, by
 * `holder`) can be handed back as soon as its death is seen, rather than when its leases run out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // PostgreSQL: the key of the session advisory lock the worker holds while it lives; null on SQLite.
    .addColumn('lock_key', 'bigint')
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('holder', 'text').execute();
}

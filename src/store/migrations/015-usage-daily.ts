import type { Kysely } from 'kysely';

/**
 * Usage kept past retention: the retention sweep folds each finished task it deletes into its account's day (UTC,
 * by the time it finished) and engine, in the transaction that deletes it (store/usage.ts). GET /v1/usage adds these
 * rows to the finished tasks still retained.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_daily')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('task_type', 'text', (c) => c.notNull())
    .addColumn('tasks', 'integer', (c) => c.notNull())
    .addColumn('credits', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'day', 'task_type'])
    .execute();
}

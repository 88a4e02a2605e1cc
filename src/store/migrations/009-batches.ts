import { sql, type Kysely } from 'kysely';

/**
 * Batches (POST /v1/async/task/batch, GET /v1/async/batch/{id}): a row per batch, and each task of a batch names it
 * with its item index. The tasks index holds batch tasks only (a partial index), by status, so that a batch's
 * counts and "is any item still open" read only its own tasks; tasks submitted alone pay nothing for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('batches_created').on('batches').column('created_at').execute();
  await db.schema
    .createIndex('batches_open')
    .on('batches')
    .column('created_at')
    .where(sql.ref('completed_at'), 'is', null)
    .execute();
  await db.schema.alterTable('tasks').addColumn('batch_id', 'text').execute();
  await db.schema.alterTable('tasks').addColumn('batch_index', 'integer').execute();
  await db.schema
    .createIndex('tasks_batch')
    .on('tasks')
    .columns(['batch_id', 'status'])
    .where(sql.ref('batch_id'), 'is not', null)
    .execute();
}

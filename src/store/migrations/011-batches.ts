import { sql, type Kysely } from 'kysely';

/**
 * Batches (POST /v1/async/task/batch, GET /v1/async/batch/{id}): a row per batch, and each task of a batch names it
 * with its item index. No index on the tasks' batch: a batch's tasks are found in the range of their ids, which the
 * batch row keeps (`first_task_id`, `last_task_id`: ids are time-ordered and made one after another for a batch,
 * so the range holds its tasks and few others, filtered out by `batch_id`). An index on the batch (and status) cost
 * a third of the dispatch rate and a quarter of the batch submit rate (docs/benchmarks.md): it was updated on every
 * claim and finish.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('first_task_id', 'text')
    .addColumn('last_task_id', 'text')
    .addColumn('webhook_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('batches_created').on('batches').column('created_at').execute();
  // The batches still open, for the completer's pass (a batch enters it once and leaves it once).
  await db.schema
    .createIndex('batches_open')
    .on('batches')
    .column('created_at')
    .where(sql.ref('completed_at'), 'is', null)
    .execute();
  await db.schema.alterTable('tasks').addColumn('batch_id', 'text').execute();
  await db.schema.alterTable('tasks').addColumn('batch_index', 'integer').execute();
}

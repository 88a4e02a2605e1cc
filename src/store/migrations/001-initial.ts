import type { Kysely } from 'kysely';

/** Forward-only. Column types are the portable subset shared by SQLite and PostgreSQL. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('task_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('sort_key', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('webhook_url', 'text')
    .addColumn('country', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('available_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('worker_id', 'text')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('credits_to_charge', 'integer', (c) => c.notNull())
    .addColumn('credits_charged', 'integer')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('tasks_idempotency_key').unique().on('tasks').column('idempotency_key').execute();
  // Claim order: per engine, queued first by sort_key (priority with ageing).
  await db.schema.createIndex('tasks_claim').on('tasks').columns(['task_type', 'status', 'sort_key']).execute();
  await db.schema.createIndex('tasks_lease').on('tasks').columns(['status', 'lease_expires_at']).execute();
  await db.schema.createIndex('tasks_created').on('tasks').column('created_at').execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('outcome', 'text')
    .addColumn('http_status', 'integer')
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['task_id', 'attempt'])
    .execute();

  await db.schema
    .createTable('aeq_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * Every task and batch belongs to an account (the one of the key that made it; tasks and batches made before
 * accounts belong to the default one). Idempotency keys are unique per account: the same key in two accounts makes
 * two tasks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tasks')
    .addColumn('account_id', 'text', (c) => c.notNull().defaultTo('default'))
    .execute();
  await db.schema
    .alterTable('batches')
    .addColumn('account_id', 'text', (c) => c.notNull().defaultTo('default'))
    .execute();
  // A delivery's account (its task's or batch's), for each account's webhook figures in /stats.
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('account_id', 'text', (c) => c.notNull().defaultTo('default'))
    .execute();
  await db.schema.dropIndex('tasks_idempotency_key').execute();
  // Partial: most tasks have no key, and an entry per task (its account id and a null) cost every insert.
  await db.schema
    .createIndex('tasks_idempotency_key')
    .unique()
    .on('tasks')
    .columns(['account_id', 'idempotency_key'])
    .where(sql.ref('idempotency_key'), 'is not', null)
    .execute();
  // Keep the planner's statistics true after the index change (both dialects know ANALYZE on a table).
  await sql`analyze tasks`.execute(db);
}

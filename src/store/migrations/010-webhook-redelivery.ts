import type { Kysely } from 'kysely';

/**
 * Redelivery (POST /v1/async/task/{id}/deliveries): a delivery row can be sent again. `redeliveries` numbers the
 * deliveries of a task (its webhook-id), `attempts_base` is where the current delivery's attempts start (each has
 * its own five), and each attempt records the delivery it belonged to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('redeliveries', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('attempts_base', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('webhook_attempts')
    .addColumn('delivery', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

import type { Kysely } from 'kysely';

/**
 * Deliveries whose sender died mid-attempt are found by (status, lease_expires_at), as due ones are
 * by (status, next_attempt_at): each claim is then an index range, whatever the outbox size.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_lease')
    .on('webhook_deliveries')
    .columns(['status', 'lease_expires_at'])
    .execute();
}

import type { Kysely } from 'kysely';

/**
 * The delivery log (GET /v1/async/task/{id}/deliveries) shows, per attempt, why it failed and when the next one was
 * scheduled; both were kept only for the delivery's last attempt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('error', 'text').execute();
  await db.schema.alterTable('webhook_attempts').addColumn('next_attempt_at', 'bigint').execute();
}

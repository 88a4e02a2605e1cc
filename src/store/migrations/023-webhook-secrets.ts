import type { Kysely } from 'kysely';

/**
 * Each account's webhook signing secret (Standard Webhooks' per-endpoint model, store/webhook-secrets.ts): the
 * current one, and after a rotation the previous one with the time it stops signing. A secret is kept sealed under
 * the secrets key when the process has one (`v1.…`), else as the `whsec_…` string.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_secrets')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_expires_at', 'bigint')
    .execute();
}

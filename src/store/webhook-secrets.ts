import type { Kysely } from 'kysely';
import type { StoredWebhookSecret } from './ports.js';
import type { Database } from './schema.js';

/** Accounts' webhook signing secrets (migrations/023-webhook-secrets.ts), as stored (ports.ts, StoredWebhookSecret). */

const num = (x: number | string | null): number | null => (x === null ? null : Number(x));

/** The rows of these accounts (those that have one). */
export async function webhookSecrets(
  db: Kysely<Database>,
  accountIds: readonly string[],
): Promise<StoredWebhookSecret[]> {
  if (accountIds.length === 0) return [];
  const rows = await db.selectFrom('webhook_secrets').selectAll().where('account_id', 'in', accountIds).execute();
  return rows.map((r) => ({
    accountId: r.account_id,
    secret: r.secret,
    createdAt: Number(r.created_at),
    previousSecret: r.previous_secret,
    previousExpiresAt: num(r.previous_expires_at),
  }));
}

/** Gives an account its first secret; one made meanwhile by another process wins (the caller reads again). */
export async function createWebhookSecret(
  db: Kysely<Database>,
  { accountId, secret, now }: { accountId: string; secret: string; now: number },
): Promise<void> {
  await db
    .insertInto('webhook_secrets')
    .values({ account_id: accountId, secret, created_at: now, previous_secret: null, previous_expires_at: null })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
}

/**
 * Makes `secret` the account's current secret; the one it replaces keeps signing until `previousUntil` (a rotation
 * within that time ends the earlier previous secret at once: two secrets sign at most).
 */
export async function rotateWebhookSecret(
  db: Kysely<Database>,
  { accountId, secret, now, previousUntil }: { accountId: string; secret: string; now: number; previousUntil: number },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('webhook_secrets')
      .set((eb) => ({
        previous_secret: eb.ref('secret'),
        previous_expires_at: previousUntil,
        secret,
        created_at: now,
      }))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) await createWebhookSecret(trx, { accountId, secret, now });
  });
}

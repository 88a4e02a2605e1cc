import type { Kysely } from 'kysely';

/**
 * Accounts and their API keys (src/accounts/). A key is stored as its SHA-256 (hex) only, with a short prefix for
 * display; `keys_version` in aeq_meta changes with every key change, so that every process drops its cache of keys
 * within a poll (src/accounts/authenticator.ts). The default account owns the tasks made before accounts existed
 * and those of the configured key (AEQ_API_KEY or the generated one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
  await (db as Kysely<{ accounts: { id: string; name: string; created_at: number } }>)
    .insertInto('accounts')
    .values({ id: 'default', name: 'default', created_at: Date.now() })
    .execute();
}

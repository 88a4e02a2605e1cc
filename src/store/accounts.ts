import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Account, ApiKeyRecord, NewApiKey, StoredKey } from '../domain/account.js';
import type { Database } from './schema.js';

/**
 * Accounts and API keys (migrations/012-accounts-and-keys.ts). Every change to a key changes `keys_version` in
 * aeq_meta in the same transaction: processes poll it and drop their cache of keys when it moves.
 */

const KEYS_VERSION = 'keys_version';

async function bumpKeysVersion(trx: Kysely<Database>): Promise<void> {
  const value = randomUUID();
  await trx
    .insertInto('aeq_meta')
    .values({ key: KEYS_VERSION, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

export async function keysVersion(db: Kysely<Database>): Promise<string> {
  const r = await db.selectFrom('aeq_meta').select('value').where('key', '=', KEYS_VERSION).executeTakeFirst();
  return r?.value ?? '';
}

const accountOf = (r: { id: string; name: string; created_at: number | string }): Account => ({
  id: r.id,
  name: r.name,
  createdAt: Number(r.created_at),
});

/** Creates an account; undefined when the name is taken. */
export async function createAccount(db: Kysely<Database>, a: Account): Promise<Account | undefined> {
  const r = await db
    .insertInto('accounts')
    .values({ id: a.id, name: a.name, created_at: a.createdAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning(['id', 'name', 'created_at'])
    .executeTakeFirst();
  return r ? accountOf(r) : undefined;
}

export async function accountByName(db: Kysely<Database>, name: string): Promise<Account | undefined> {
  const r = await db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
  return r ? accountOf(r) : undefined;
}

export async function listAccounts(db: Kysely<Database>): Promise<Account[]> {
  return (await db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('name').execute()).map(accountOf);
}

const KEY_COLUMNS = [
  'k.id',
  'k.account_id',
  'a.name as account_name',
  'k.name',
  'k.prefix',
  'k.created_at',
  'k.last_used_at',
  'k.expires_at',
  'k.revoked_at',
] as const;

function keyOf(r: {
  id: string;
  account_id: string;
  account_name: string;
  name: string | null;
  prefix: string;
  created_at: number | string;
  last_used_at: number | string | null;
  expires_at: number | string | null;
  revoked_at: number | string | null;
}): ApiKeyRecord {
  const n = (x: number | string | null) => (x === null ? null : Number(x));
  return {
    id: r.id,
    accountId: r.account_id,
    accountName: r.account_name,
    name: r.name,
    prefix: r.prefix,
    createdAt: Number(r.created_at),
    lastUsedAt: n(r.last_used_at),
    expiresAt: n(r.expires_at),
    revokedAt: n(r.revoked_at),
  };
}

/** Stores a key (its hash, never the key) and moves the keys version. */
export async function insertKey(db: Kysely<Database>, k: NewApiKey): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('api_keys')
      .values({
        id: k.id,
        account_id: k.accountId,
        name: k.name,
        prefix: k.prefix,
        hash: k.hash,
        created_at: k.createdAt,
        last_used_at: null,
        expires_at: k.expiresAt,
        revoked_at: null,
      })
      .execute();
    await bumpKeysVersion(trx);
  });
}

/** Keys, newest first; of one account when `accountId` is given. */
export async function listKeys(db: Kysely<Database>, accountId?: string): Promise<ApiKeyRecord[]> {
  let q = db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .select(KEY_COLUMNS)
    .orderBy('k.created_at', 'desc');
  if (accountId !== undefined) q = q.where('k.account_id', '=', accountId);
  return (await q.execute()).map(keyOf);
}

/** Revokes the key with this prefix (once: a revoked key keeps its first revocation time); undefined if none. */
export async function revokeKey(
  db: Kysely<Database>,
  { prefix, now }: { prefix: string; now: number },
): Promise<ApiKeyRecord | undefined> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('prefix', '=', prefix)
      .where('revoked_at', 'is', null)
      .execute();
    await bumpKeysVersion(trx);
    const r = await trx
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select(KEY_COLUMNS)
      .where('k.prefix', '=', prefix)
      .executeTakeFirst();
    return r ? keyOf(r) : undefined;
  });
}

/** The key with this hash, for authentication. */
export async function keyByHash(db: Kysely<Database>, hash: string): Promise<StoredKey | undefined> {
  const r = await db
    .selectFrom('api_keys')
    .select(['id', 'account_id', 'prefix', 'expires_at', 'revoked_at', 'last_used_at'])
    .where('hash', '=', hash)
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    accountId: r.account_id,
    prefix: r.prefix,
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
    lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  };
}

/** Records a key's use (the caller writes at most once a minute per key). */
export async function touchKey(db: Kysely<Database>, { id, now }: { id: string; now: number }): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}

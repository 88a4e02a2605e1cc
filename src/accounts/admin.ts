import { randomUUID } from 'node:crypto';
import type { Account, ApiKeyRecord } from '../domain/account.js';
import { isoOrNull } from '../domain/clock.js';
import type { Accounts } from '../store/ports.js';
import { ACCOUNT_NAME, newApiKey, parseDuration } from './api-keys.js';

/** Why an administration step was refused; the CLI prints it, the internal routes answer it. */
export class AdminError extends Error {
  constructor(
    readonly code: 'ACCOUNT_EXISTS' | 'ACCOUNT_NOT_FOUND' | 'KEY_NOT_FOUND' | 'BAD_NAME' | 'BAD_EXPIRY',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Account and key administration, the same for `aeq accounts|keys …` (against the configured store, no server
 * running) and for /internal/accounts and /internal/keys.
 */
export async function createAccount(accounts: Accounts, name: string, now: number): Promise<Account> {
  if (!ACCOUNT_NAME.test(name))
    throw new AdminError('BAD_NAME', 'an account name is 1-63 letters, digits, ".", "_" or "-", starting alphanumeric');
  const made = await accounts.create({ id: randomUUID(), name, createdAt: now });
  if (!made) throw new AdminError('ACCOUNT_EXISTS', `an account named ${JSON.stringify(name)} exists`);
  return made;
}

/** The account of this name, or ACCOUNT_NOT_FOUND. */
async function accountNamed(accounts: Accounts, name: string): Promise<Account> {
  const account = await accounts.byName(name);
  if (!account) throw new AdminError('ACCOUNT_NOT_FOUND', `no account named ${JSON.stringify(name)}`);
  return account;
}

/** Every key, or the named account's (ACCOUNT_NOT_FOUND for a name that is none), newest first. */
export async function listKeys(accounts: Accounts, accountName?: string): Promise<ApiKeyRecord[]> {
  return accounts.listKeys(accountName === undefined ? undefined : (await accountNamed(accounts, accountName)).id);
}

/** A new key of the named account: the key itself, to show once, and its record. */
export async function createKey(
  accounts: Accounts,
  o: { account: string; name?: string | undefined; expires?: string | undefined },
  now: number,
): Promise<{ key: string; record: ApiKeyRecord }> {
  const account = await accountNamed(accounts, o.account);
  let expiresAt: number | null = null;
  if (o.expires !== undefined) {
    const ms = parseDuration(o.expires);
    if (ms === null) throw new AdminError('BAD_EXPIRY', 'expiry is a duration such as 90d, 12h or 30m (at most 3650d)');
    expiresAt = now + ms;
  }
  const { key, stored } = newApiKey(account.id, o.name ?? null, now, expiresAt);
  await accounts.insertKey(stored);
  return {
    key,
    record: {
      id: stored.id,
      accountId: account.id,
      accountName: account.name,
      name: stored.name,
      prefix: stored.prefix,
      createdAt: now,
      lastUsedAt: null,
      expiresAt,
      revokedAt: null,
    },
  };
}

export async function revokeKey(accounts: Accounts, prefix: string, now: number): Promise<ApiKeyRecord> {
  const r = await accounts.revokeKey({ prefix, now });
  if (!r) throw new AdminError('KEY_NOT_FOUND', `no key with prefix ${JSON.stringify(prefix)}`);
  return r;
}

/** A key as administration shows it: times as ISO strings, and whether it is usable now. */
export function keyView(k: ApiKeyRecord, now: number) {
  const state =
    k.revokedAt !== null ? 'revoked' : k.expiresAt !== null && k.expiresAt <= now ? 'expired' : ('active' as const);
  return {
    prefix: k.prefix,
    name: k.name,
    account: k.accountName,
    state,
    createdAt: isoOrNull(k.createdAt),
    lastUsedAt: isoOrNull(k.lastUsedAt),
    expiresAt: isoOrNull(k.expiresAt),
    revokedAt: isoOrNull(k.revokedAt),
  };
}

export function accountView(a: Account) {
  return { id: a.id, name: a.name, createdAt: new Date(a.createdAt).toISOString() };
}

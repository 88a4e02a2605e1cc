/** A client account: the owner of keys, tasks, batches and usage. */
export interface Account {
  id: string;
  name: string;
  createdAt: number;
}

/** The account of the configured key (AEQ_API_KEY or the generated one) and of tasks made before accounts. */
export const DEFAULT_ACCOUNT_ID = 'default';

/** A key as stored: its hash only (src/accounts/api-keys.ts says why SHA-256). */
export interface NewApiKey {
  id: string;
  accountId: string;
  name: string | null;
  /** The first characters of the key, shown in lists and used to revoke it. */
  prefix: string;
  hash: string;
  createdAt: number;
  expiresAt: number | null;
}

/** A key as listed: never its hash, never the key. */
export interface ApiKeyRecord {
  id: string;
  accountId: string;
  accountName: string;
  name: string | null;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** What authentication reads of a stored key. */
export interface StoredKey {
  id: string;
  accountId: string;
  prefix: string;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** Who made a request: an account, and the stored key used (null for the configured key). */
export interface Caller {
  accountId: string;
  keyId: string | null;
}

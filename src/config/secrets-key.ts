import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where the generated sealing key of an embedded store lives, beside the store in the data dir. */
const SECRETS_KEY_FILE = 'secrets-key';

/**
 * The key that seals secrets kept in the store (pool resources added at run time, accounts' webhook secrets): its own
 * key, never a credential some client or scraper also holds (the internal token opens every `/internal/*` route and
 * Prometheus' scrape config; were it the sealing key, each holder could open what the store keeps, and rotating the
 * token would lose every sealed secret).
 *
 * AEQ_SECRETS_KEY when set. Otherwise the embedded store gets one generated on first start, in the data dir (mode
 * 0600), beside the file it protects; so it guards a copied table or backup of the store, not a copied data dir. A
 * PostgreSQL deployment is many processes on many hosts and has no shared directory: there the operator gives every
 * process the same AEQ_SECRETS_KEY, and without it nothing secret can be sealed (adding such a resource says so).
 */
export function resolveSecretsKey(envKey: string | undefined, dataDir: string, sharedStore: boolean): string | null {
  if (envKey) return envKey;
  if (sharedStore) return null;
  const file = path.join(dataDir, SECRETS_KEY_FILE);
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing) return existing;
  } catch {
    // first start
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    // Written by a concurrent first start: the file wins.
    return fs.readFileSync(file, 'utf8').trim();
  }
  return key;
}

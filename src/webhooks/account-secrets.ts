import { randomBytes } from 'node:crypto';
import { DEFAULT_ACCOUNT_ID } from '../domain/account.js';
import { open, seal } from '../pools/secret-box.js';
import type { StoredWebhookSecret, WebhookSecrets } from '../store/ports.js';
import { secretKeys, type WebhookSecret } from './signing.js';

/** After a rotation the replaced secret signs too for this long, so receivers can cut over (Standard Webhooks). */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** Key bytes of a generated secret (Standard Webhooks asks for 24 to 64). */
const SECRET_BYTES = 32;

/** What an account's keys see of its signing secrets (GET /v1/webhooks/secret). */
export interface AccountSecretView {
  secret: string;
  /** When it was made; null for the configured secret of the default account. */
  createdAt: number | null;
  /** The secret a rotation replaced, while it still signs. */
  previous: { secret: string; expiresAt: number } | null;
  /** `configured`: the default account's AEQ_WEBHOOK_SECRET; `account`: made by the service. */
  source: 'account' | 'configured';
}

/** An account's secrets could not be opened (sealed under another secrets key). */
export class SecretUnreadableError extends Error {
  readonly code = 'SECRET_UNREADABLE';
  constructor() {
    super("the account's webhook secret was sealed with another secrets key");
  }
}

export interface AccountSecretsOptions {
  /** AEQ_WEBHOOK_SECRET: the default account's secrets, as deployments before per-account secrets had them. */
  configured: readonly string[];
  /** Seals secrets in the store (config/secrets-key.ts); null: kept as `whsec_…` (see docs/security.md). */
  sealingKey: string | null;
  now: () => number;
}

/**
 * Each account's webhook signing secrets (Standard Webhooks' per-endpoint model): one per account, made on first use
 * (the first read by its keys or the first delivery to sign) and kept in the store, so that no tenant holds a key that
 * signs another tenant's deliveries. A rotation keeps the replaced secret signing for 24 hours. The default account
 * signs with AEQ_WEBHOOK_SECRET when it is set, as before.
 */
export class AccountSecrets {
  constructor(
    private readonly secrets: WebhookSecrets,
    private readonly opts: AccountSecretsOptions,
  ) {}

  private configuredFor(accountId: string): readonly string[] | null {
    return accountId === DEFAULT_ACCOUNT_ID && this.opts.configured.length > 0 ? this.opts.configured : null;
  }

  /** The account's secrets, made first if it has none. */
  async view(accountId: string): Promise<AccountSecretView> {
    const configured = this.configuredFor(accountId);
    if (configured) return { secret: configured[0] ?? '', createdAt: null, previous: null, source: 'configured' };
    const [row] = await this.rows([accountId]);
    if (!row) throw new Error('webhook secret missing after it was made');
    return this.viewOf(row);
  }

  /** Makes a new secret for the account; the replaced one keeps signing for 24 hours. Null: configured ones. */
  async rotate(accountId: string): Promise<AccountSecretView | null> {
    if (this.configuredFor(accountId)) return null;
    const now = this.opts.now();
    await this.secrets.rotate({
      accountId,
      secret: this.sealed(generateSecret()),
      now,
      previousUntil: now + ROTATION_OVERLAP_MS,
    });
    return this.view(accountId);
  }

  /**
   * The signing keys of each account (the current secret first, then the previous one while it signs), made first
   * for accounts without one: one store read for all of a claim's accounts. An account whose secret cannot be opened
   * maps to a SecretUnreadableError.
   */
  async signingKeys(accountIds: readonly string[]): Promise<Map<string, WebhookSecret[] | SecretUnreadableError>> {
    const out = new Map<string, WebhookSecret[] | SecretUnreadableError>();
    const fromStore: string[] = [];
    for (const id of new Set(accountIds)) {
      const configured = this.configuredFor(id);
      if (configured) out.set(id, secretKeys(configured));
      else fromStore.push(id);
    }
    for (const row of await this.rows(fromStore)) {
      const { current, previous } = this.openedPair(row);
      out.set(
        row.accountId,
        current === null ? new SecretUnreadableError() : secretKeys(previous ? [current, previous] : [current]),
      );
    }
    return out;
  }

  /** The rows of these accounts, each made first when missing (another process's, made meanwhile, wins). */
  private async rows(accountIds: readonly string[]): Promise<StoredWebhookSecret[]> {
    if (accountIds.length === 0) return [];
    const found = await this.secrets.of(accountIds);
    const missing = accountIds.filter((id) => !found.some((r) => r.accountId === id));
    if (missing.length === 0) return found;
    const now = this.opts.now();
    for (const id of missing) await this.secrets.create({ accountId: id, secret: this.sealed(generateSecret()), now });
    return [...found, ...(await this.secrets.of(missing))];
  }

  private viewOf(row: StoredWebhookSecret): AccountSecretView {
    const { current: secret, previous } = this.openedPair(row);
    if (secret === null) throw new SecretUnreadableError();
    return {
      secret,
      createdAt: row.createdAt,
      previous: previous === null ? null : { secret: previous, expiresAt: row.previousExpiresAt ?? 0 },
      source: 'account',
    };
  }

  /** An account's secret in clear, and the replaced one while it still signs (null after its 24 hours). */
  private openedPair(row: StoredWebhookSecret): { current: string | null; previous: string | null } {
    const signs = row.previousSecret !== null && (row.previousExpiresAt ?? 0) > this.opts.now();
    return {
      current: this.opened(row.secret),
      previous: signs && row.previousSecret !== null ? this.opened(row.previousSecret) : null,
    };
  }

  private sealed(secret: string): string {
    return this.opts.sealingKey === null ? secret : seal(secret, this.opts.sealingKey);
  }

  /** A stored secret in clear: `whsec_…` as kept without a sealing key, else opened; null when it cannot be. */
  private opened(stored: string): string | null {
    if (stored.startsWith('whsec_')) return stored;
    return this.opts.sealingKey === null ? null : open(stored, this.opts.sealingKey);
  }
}

/** A new secret: `whsec_` and the base64 of 32 random bytes. */
function generateSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

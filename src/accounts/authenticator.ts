import type { Logger } from 'pino';
import { DEFAULT_ACCOUNT_ID, type Caller, type StoredKey } from '../domain/account.js';
import { bearerToken, digestMatches, sha256 } from './bearer.js';
import type { Accounts } from '../store/ports.js';
import { isKeyShaped } from './api-keys.js';

/** The configured key's caller, one object for every request that presents it. */
const CONFIGURED_CALLER: Caller = Object.freeze({ accountId: DEFAULT_ACCOUNT_ID, keyId: null });

/** A stored key and the caller object handed to each of its requests. */
interface CachedKey {
  key: StoredKey;
  caller: Caller;
}

/**
 * Keys remembered. Only tokens the store knows enter this cache, so its size is bounded by the keys that exist, and
 * nobody without a key can fill it; past this bound the oldest entry goes.
 */
const KEYS_MAX = 100_000;
/**
 * Key-shaped tokens that are no key, remembered so that repeating one costs no store read. Kept apart from the keys:
 * a flood of made-up tokens evicts only other made-up tokens, never a valid key (oldest first).
 */
const UNKNOWN_MAX = 10_000;
/** A key's last use is written at most this often. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Who a bearer token belongs to. The configured key (AEQ_API_KEY or the generated one) is the default account's,
 * compared in constant time as before accounts existed; any other token is looked up by its SHA-256, through a cache
 * that every process drops when the store's keys version moves (polled; a change made through this process drops it
 * at once). A lookup is by hash, so its timing says nothing about a key: an index finds a hash or does not.
 */
export class Authenticator {
  private readonly cache = new Map<string, CachedKey>();
  private readonly unknown = new Set<string>();
  /** Moves whenever the cache is dropped: a lookup started before keeps its answer out of the new cache. */
  private generation = 0;
  private version: string | null = null;
  private readonly touched = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly accounts: Pick<Accounts, 'keysVersion' | 'keyByHash' | 'touchKey'>,
    private readonly configuredKey: string,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** Reads the keys version now and then every `pollMs`. */
  async start(pollMs: number): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Drops the cache when the store's keys version has moved (a key made, revoked, by any process). */
  async refresh(): Promise<void> {
    try {
      const v = await this.accounts.keysVersion();
      if (v !== this.version) {
        this.version = v;
        this.forget();
      }
    } catch (e) {
      this.log.error({ err: e }, 'reading the keys version failed');
    }
  }

  /** Drops every cached key (after a change made through this process). */
  forget(): void {
    this.cache.clear();
    this.unknown.clear();
    this.generation++;
  }

  /**
   * The caller a request's Authorization header names, or null (missing, unknown, revoked or expired): at once for
   * the configured key, a cached key and a token that cannot be a key (no store read), through a store read otherwise.
   * One SHA-256 of the token serves both the constant-time check of the configured key and the lookup.
   */
  authenticate(header: string | undefined): Caller | null | Promise<Caller | null> {
    const token = bearerToken(header);
    if (token === '') return null;
    const digest = sha256(token);
    if (digestMatches(digest, this.configuredKey)) return CONFIGURED_CALLER;
    if (!isKeyShaped(token)) return null;
    const hash = digest.toString('hex'); // hashKey(token), from the digest already in hand
    const cached = this.cache.get(hash);
    if (cached !== undefined) return this.admit(cached);
    if (this.unknown.has(hash)) return null;
    return this.lookup(hash);
  }

  private async lookup(hash: string): Promise<Caller | null> {
    const generation = this.generation;
    const stored = await this.accounts.keyByHash(hash);
    const entry = stored ? { key: stored, caller: { accountId: stored.accountId, keyId: stored.id } } : null;
    if (generation === this.generation) {
      if (entry) remember(this.cache, hash, entry, KEYS_MAX);
      else remember(this.unknown, hash, undefined, UNKNOWN_MAX);
    }
    return this.admit(entry);
  }

  private admit(entry: CachedKey | null): Caller | null {
    if (!entry) return null;
    const now = this.now();
    const { key } = entry;
    if (key.revokedAt !== null || (key.expiresAt !== null && key.expiresAt <= now)) return null;
    this.touch(key, now);
    return entry.caller;
  }

  private touch(key: StoredKey, now: number): void {
    const last = this.touched.get(key.id) ?? key.lastUsedAt ?? 0;
    if (now - last < TOUCH_EVERY_MS) return;
    this.touched.set(key.id, now);
    this.accounts
      .touchKey({ id: key.id, now })
      .catch((e: unknown) => this.log.warn({ err: e }, 'recording a key use failed'));
  }
}

/** Adds to a bounded map or set, dropping the oldest entry (insertion order) when it is full. */
function remember<V>(into: Map<string, V> | Set<string>, hash: string, value: V, max: number): void {
  if (into.size >= max) {
    const oldest = into.keys().next().value;
    if (oldest !== undefined) into.delete(oldest);
  }
  if (into instanceof Map) into.set(hash, value);
  else into.add(hash);
}

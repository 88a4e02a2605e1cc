import { randomBytes, randomUUID } from 'node:crypto';
import type { NewApiKey } from '../domain/account.js';
import { sha256 } from './bearer.js';

/**
 * API keys: `aeq_` and 32 characters of base64url, 192 random bits. Only a key's SHA-256 is stored. A slow password
 * hash (bcrypt, scrypt, argon2) is for secrets people choose, which can be guessed; a random 192-bit key cannot be,
 * so one SHA-256 is as safe and costs a microsecond per request instead of tens of milliseconds (it is computed on
 * every request, cached lookups included). The prefix (`aeq_` and 8 characters, 48 bits) names a key in lists and
 * to revoke it, and says nothing usable about the rest.
 */
const KEY_PREFIX = 'aeq_';
const PREFIX_CHARS = 8;
/** Every key this service makes (and the generated AEQ_API_KEY): `aeq_` and 32 base64url characters. */
const KEY_SHAPE = /^aeq_[A-Za-z0-9_-]{32}$/;

/** Whether a token can be a key at all; anything else is refused without a store read. */
export function isKeyShaped(token: string): boolean {
  return token.length === KEY_PREFIX.length + 32 && KEY_SHAPE.test(token);
}

/** What the store keeps of a key: its SHA-256 in hex (the authenticator looks keys up by the same digest). */
function hashKey(key: string): string {
  return sha256(key).toString('hex');
}

/** A new key for an account: the key itself (shown once) and what the store keeps. */
export function newApiKey(
  accountId: string,
  name: string | null,
  now: number,
  expiresAt: number | null,
): { key: string; stored: NewApiKey } {
  const key = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  return {
    key,
    stored: {
      id: randomUUID(),
      accountId,
      name,
      prefix: key.slice(0, KEY_PREFIX.length + PREFIX_CHARS),
      hash: hashKey(key),
      createdAt: now,
      expiresAt,
    },
  };
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90d`, `12h`, `30m` → milliseconds; null for anything else (at most ten years). */
export function parseDuration(text: string): number | null {
  const m = /^([1-9][0-9]{0,5})([mhd])$/.exec(text.trim());
  if (!m) return null;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms <= 3650 * UNIT_MS.d ? ms : null;
}

/** Account names: what the CLI and the internal routes accept (they are shown in metrics labels too). */
export const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

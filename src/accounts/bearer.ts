import crypto, { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time bearer check: both sides are hashed to a fixed length first, so neither the
 * comparison time nor an early length mismatch reveals anything about the key.
 */
export function bearerMatches(header: string | undefined, key: string): boolean {
  const presented = bearerToken(header);
  return digestMatches(sha256(presented), key) && presented.length > 0;
}

/** Whether a token's SHA-256 (`sha256`) is that of a configured key, in constant time. */
export function digestMatches(digest: Buffer, key: string): boolean {
  return timingSafeEqual(digest, configuredDigest(key));
}

/** The token of an `Authorization: Bearer <token>` header; empty when there is none. */
export function bearerToken(header: string | undefined): string {
  if (!header) return '';
  return /^Bearer[ \t]+(.+)$/i.exec(header.trim())?.[1] ?? '';
}

/** The one-shot `crypto.hash` (Node 20.12+) is several times cheaper than a Hash object per request. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;
export function sha256(s: string): Buffer {
  return oneShot ? oneShot('sha256', s, 'buffer') : createHash('sha256').update(s).digest();
}

/** The configured keys (the API key, the internal token) are hashed once, not on every request. */
const configured = new Map<string, Buffer>();
function configuredDigest(key: string): Buffer {
  let d = configured.get(key);
  if (!d) {
    // A handful of configured keys per process; the bound only guards against misuse.
    if (configured.size > 16) configured.clear();
    d = sha256(key);
    configured.set(key, d);
  }
  return d;
}

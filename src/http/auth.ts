import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time bearer check: both sides are hashed to a fixed length first, so neither the
 * comparison time nor an early length mismatch reveals anything about the key.
 */
export function bearerMatches(header: string | undefined, key: string): boolean {
  if (!header) return false;
  const m = /^Bearer[ \t]+(.+)$/i.exec(header.trim());
  const presented = m?.[1] ?? '';
  const a = sha256(presented);
  return timingSafeEqual(a, configuredDigest(key)) && presented.length > 0;
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
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

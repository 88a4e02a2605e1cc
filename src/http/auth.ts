import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time bearer check: both sides are hashed to a fixed length first, so neither the
 * comparison time nor an early length mismatch reveals anything about the key.
 */
export function bearerMatches(header: string | undefined, key: string): boolean {
  if (!header) return false;
  const m = /^Bearer[ \t]+(.+)$/i.exec(header.trim());
  const presented = m?.[1] ?? '';
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(key).digest();
  return timingSafeEqual(a, b) && presented.length > 0;
}

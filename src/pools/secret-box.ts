import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for the secrets of resources added at run time (account secrets, proxy URLs
 * with passwords), which the store must carry to the other processes. AES-256-GCM under a key
 * derived (HKDF-SHA-256) from the secrets key (`config/secrets-key.ts`), which every process is given.
 */
function keyFrom(secret: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', createHash('sha256').update(secret).digest(), Buffer.alloc(0), 'aeq runtime secrets v1', 32),
  );
}

export function seal(plaintext: string, key: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(key), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
    '.',
  );
}

/** The plaintext, or null when the key is not the one that sealed it (or the box is damaged). */
export function open(box: string, key: string): string | null {
  const [v, iv, tag, body] = box.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', keyFrom(key), Buffer.from(iv, 'base64url'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}

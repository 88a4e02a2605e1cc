import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The client key: AEQ_API_KEY if set; otherwise one generated on first start, stored in the data
 * dir (mode 0600) and reused on restart. `generated` tells the caller to print it once.
 */
export function resolveApiKey(envKey: string | undefined, dataDir: string): { key: string; generated: boolean } {
  if (envKey) return { key: envKey, generated: false };
  const file = path.join(dataDir, 'api-key');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing) return { key: existing, generated: false };
  } catch {
    // first start
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = `aeq_${randomBytes(24).toString('base64url')}`;
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return { key, generated: true };
}

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The client key: AEQ_API_KEY if set; otherwise one generated on first start, stored in the data
 * dir (mode 0600) and reused on restart. `generated` tells the caller to print it once; `superseded` names the file of
 * a generated key that AEQ_API_KEY now replaces.
 */
export function resolveApiKey(
  envKey: string | undefined,
  dataDir: string,
): { key: string; generated: boolean; superseded: string | null } {
  const file = path.join(dataDir, 'api-key');
  if (envKey) {
    // A key generated on an earlier start stops working once AEQ_API_KEY is set: say where it is, so nobody keeps
    // using it (or wonders why it is refused).
    let earlier = '';
    try {
      earlier = fs.readFileSync(file, 'utf8').trim();
    } catch {
      // none
    }
    return { key: envKey, generated: false, superseded: earlier && earlier !== envKey ? file : null };
  }
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing) return { key: existing, generated: false, superseded: null };
  } catch {
    // first start
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = `aeq_${randomBytes(24).toString('base64url')}`;
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return { key, generated: true, superseded: null };
}

/**
 * Belt and braces for `raw`: provider payloads do not echo the key, but a proxy, an upstream bug or
 * a future field could. Every string equal to or containing a secret is rewritten before `raw`
 * leaves the adapter.
 */
export function redactSecrets<T>(value: T, secrets: ReadonlyArray<string | undefined>): T {
  const live = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  if (live.length === 0) return value;
  return walk(value, live) as T;
}

function walk(v: unknown, secrets: readonly string[]): unknown {
  if (typeof v === 'string') {
    let s = v;
    for (const secret of secrets) if (s.includes(secret)) s = s.split(secret).join('[redacted]');
    return s;
  }
  if (Array.isArray(v)) return v.map((x) => walk(x, secrets));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, secrets);
    return out;
  }
  return v;
}

/** Provider error messages can quote a masked key (`sk-ab***yz`); keep only harmless words. */
export function scrubMessage(message: unknown, max = 160): string {
  if (typeof message !== 'string') return '';
  return message
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_*\-.]{4,}/g, '[key]')
    .replace(/AIza[0-9A-Za-z_\-*]{8,}/g, '[key]')
    .slice(0, max);
}

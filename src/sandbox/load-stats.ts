import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

interface Gauge {
  current: number;
  max: number;
  total: number;
}

/** The cookie chatgpt.com keeps its session in: the app's credential, as a bearer token is the API's. */
const APP_SESSION_COOKIE = '__Secure-next-auth.session-token';

/**
 * How a credential is named in `/__sim/stats` (never echoed): the first 12 hex digits of the SHA-256 of the
 * `authorization` or `x-goog-api-key` header as sent, or of `session <value>` for an app's session cookie.
 */
export function simCredentialId(credential: string): string {
  return createHash('sha256').update(credential).digest('hex').slice(0, 12);
}

function sessionCredential(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === APP_SESSION_COOKIE) return `session ${part.slice(eq + 1).trim()}`;
  }
  return undefined;
}

/**
 * How hard the simulated upstreams are being hit: requests in flight per upstream family and per credential (hashed,
 * never echoed: `simCredentialId`; an API's key or token, an app's session cookie), current and peak. Served at
 * `GET /__sim/stats` (reset with `POST /__sim/reset`), so a test can check that per-engine concurrency and
 * one-conversation-per-account hold across many worker processes sharing one simulator, and which credential each
 * upstream received.
 */
export function trackLoad(app: FastifyInstance): void {
  const families = new Map<string, Gauge>();
  const credentials = new Map<string, Gauge>();
  const bump = (m: Map<string, Gauge>, k: string, d: number) => {
    const g = m.get(k) ?? { current: 0, max: 0, total: 0 };
    g.current += d;
    if (d > 0) {
      g.total++;
      g.max = Math.max(g.max, g.current);
    }
    m.set(k, g);
  };
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/__sim/')) return;
    const family = req.url.split('/')[1] ?? '';
    const auth = req.headers.authorization ?? req.headers['x-goog-api-key'] ?? sessionCredential(req.headers.cookie);
    const cred = typeof auth === 'string' ? simCredentialId(auth) : null;
    bump(families, family, 1);
    if (cred) bump(credentials, `${family}:${cred}`, 1);
    // Count the request as finished when its socket response ends, whatever the route did.
    reply.raw.once('close', () => {
      bump(families, family, -1);
      if (cred) bump(credentials, `${family}:${cred}`, -1);
    });
  });
  app.get('/__sim/stats', async () => ({
    families: Object.fromEntries(families),
    credentials: Object.fromEntries(credentials),
  }));
  app.post('/__sim/reset', async () => {
    for (const m of [families, credentials])
      for (const [k, g] of m) m.set(k, { current: g.current, max: g.current, total: 0 });
    return { ok: true };
  });
}

import type { ExitAddressConfig } from '../../config/engine-config.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';

/** Playwright's per-context proxy settings. */
export interface ContextProxy {
  server: string;
  username?: string;
  password?: string;
}

/** How the attempt's exit address becomes the context's proxy; null for the host's own connection. */
export function proxyForExit(exit: Pick<ExitAddressConfig, 'id' | 'proxyUrl'>): ContextProxy | null {
  if (!exit.proxyUrl) return null;
  let u: URL;
  try {
    u = new URL(exit.proxyUrl);
  } catch {
    // Never echo the URL: it may hold the proxy's password.
    throw new UpstreamFailure('UPSTREAM_ERROR', `exit ${exit.id}: proxyUrl is not a valid URL`);
  }
  // Chromium resolves names through a SOCKS5 proxy itself, which is what socks5h asks for.
  const scheme = u.protocol === 'socks5h:' ? 'socks5:' : u.protocol;
  const proxy: ContextProxy = { server: `${scheme}//${u.host}` };
  if (u.username || u.password) {
    if (scheme === 'socks5:') {
      throw new UpstreamFailure(
        'UPSTREAM_ERROR',
        `exit ${exit.id}: Chromium cannot authenticate to a SOCKS5 proxy; give browser engines an http(s) proxy`,
      );
    }
    proxy.username = decodeURIComponent(u.username);
    proxy.password = decodeURIComponent(u.password);
  }
  return proxy;
}

/** Headers the browser sets itself per request type; forcing them on every request would look odd. */
const BROWSER_OWNED = new Set([
  'accept',
  'accept-encoding',
  'connection',
  'content-length',
  'host',
  'upgrade-insecure-requests',
]);

export interface SplitHeaders {
  userAgent: string | null;
  cookies: Array<{ name: string; value: string }>;
  extra: Record<string, string>;
}

/** Sorts an adapter's request headers into what a browser context takes: user agent, cookies, extra headers. */
export function splitRequestHeaders(headers: Record<string, string> = {}): SplitHeaders {
  const out: SplitHeaders = { userAgent: null, cookies: [], extra: {} };
  for (const [rawKey, value] of Object.entries(headers)) {
    const key = rawKey.toLowerCase();
    if (key === 'user-agent') out.userAgent = value;
    else if (key === 'cookie') out.cookies.push(...parseCookieHeader(value));
    else if (!BROWSER_OWNED.has(key)) out.extra[key] = value;
  }
  return out;
}

function parseCookieHeader(value: string): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out.push({ name: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() });
  }
  return out;
}

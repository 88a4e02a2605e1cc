import { normalizeSourceUrl } from '../common/urls.js';

const BING_ORIGIN = 'https://www.bing.com';

/**
 * Turns a result link into the target URL (docs/engines.md#bing-results): Bing wraps organic links in
 * `/ck/a?…&u=a1<base64url>`; the payload after the `a1` prefix is the target. Anything that does not
 * decode to an http(s) URL is kept as given, so a changed wrapper shows up as a bing.com URL
 * instead of a wrong one.
 */
export function unwrapBingLink(href: string): string {
  let u: URL;
  try {
    u = new URL(href, BING_ORIGIN);
  } catch {
    return href;
  }
  if (/(^|\.)bing\.com$/i.test(u.hostname) && u.pathname === '/ck/a') {
    const target = decodeA1(u.searchParams.get('u'));
    if (target) return normalizeSourceUrl(target);
  }
  return normalizeSourceUrl(u.toString());
}

function decodeA1(param: string | null): string | null {
  if (!param?.startsWith('a1')) return null;
  const b64 = param.slice(2).replace(/-/g, '+').replace(/_/g, '/');
  const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
  const decoded = Buffer.from(padded, 'base64').toString('utf8');
  return /^https?:\/\/[^\s]+$/i.test(decoded) ? decoded : null;
}

import { normalizeSourceUrl } from '../common/urls.js';

/** Hosts whose links are never sources: bookmarks, ads, login, and Naver's own search pages. */
const NON_SOURCE_HOSTS = new Set([
  'keep.naver.com',
  'ader.naver.com',
  'nid.naver.com',
  'search.naver.com',
  'm.search.naver.com',
]);

/** Naver click trackers: `search.naver.com/p/crd/rd?...&u=<urlencoded target>` (docs/engines.md#normalised-answer). */
function unwrapTracker(u: URL): URL {
  const isSearchHost = u.hostname === 'search.naver.com' || u.hostname === 'm.search.naver.com';
  if (isSearchHost && u.pathname.startsWith('/p/crd/rd')) {
    const target = u.searchParams.get('u');
    if (target) {
      try {
        return new URL(target);
      } catch {
        return u;
      }
    }
  }
  return u;
}

/**
 * The real target of a link found on a Naver page, normalised, or null when it is not an http(s)
 * link to a source (relative links are Naver-internal navigation, never sources).
 */
export function sourceUrlOf(href: string | undefined): string | null {
  if (!href) return null;
  let u: URL;
  try {
    u = new URL(href.trim());
  } catch {
    return null;
  }
  u = unwrapTracker(u);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (isNonSourceHost(u.hostname)) return null;
  return normalizeSourceUrl(u.toString());
}

function isNonSourceHost(host: string): boolean {
  if (NON_SOURCE_HOSTS.has(host)) return true;
  return host.endsWith('.ader.naver.com');
}

/** Ad links (search ads go through ader.naver.com). */
export function isAdHref(href: string | undefined): boolean {
  if (!href) return false;
  try {
    const host = new URL(href).hostname;
    return host === 'ader.naver.com' || host.endsWith('.ader.naver.com');
  } catch {
    return false;
  }
}

import { normalizeSourceUrl, parseUrl } from '../common/urls.js';

/**
 * Google's own pages, never a result or a citation (docs/engines.md#google-organic-results): the search host
 * itself and its service hosts. Publisher sites on Google hosts (developers.google.com, cloud.google.com)
 * stay.
 */
const INTERNAL_HOST = new RegExp(
  [
    String.raw`^((www|accounts|support|policies|maps|consent|translate|webcache)\.)?google\.[a-z]{2,3}(\.[a-z]{2})?$`,
    String.raw`(^|\.)(gstatic\.com|googleusercontent\.com|googleadservices\.com|doubleclick\.net)$`,
  ].join('|'),
  'i',
);

/**
 * Resolves a result or citation href to the publisher URL: unwraps Google's `/url?q=` / `/url?url=`
 * redirector, drops `#:~:text=` highlights and `utm_*`. Returns null for Google-internal, relative
 * or non-http links.
 */
export function publisherUrl(href: string | undefined, pageUrl: string): string | null {
  const u = href ? parseUrl(href, pageUrl) : null;
  if (!u) return null;
  if (u.pathname === '/url' && isGoogleOrPage(u, pageUrl)) {
    const target = u.searchParams.get('q') ?? u.searchParams.get('url');
    if (!target || !/^https?:\/\//i.test(target)) return null;
    return publisherUrl(target, pageUrl);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (INTERNAL_HOST.test(u.hostname)) return null;
  // A relative link resolves onto the page's own host (the sandbox or google.com): internal.
  if (sameOrigin(u, pageUrl)) return null;
  return normalizeSourceUrl(u.toString());
}

function isGoogleOrPage(u: URL, pageUrl: string): boolean {
  return INTERNAL_HOST.test(u.hostname) || sameOrigin(u, pageUrl);
}

function sameOrigin(u: URL, pageUrl: string): boolean {
  try {
    return new URL(pageUrl).origin === u.origin;
  } catch {
    return false;
  }
}

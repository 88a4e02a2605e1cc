import { normalizeSourceUrl, parseUrl } from '../common/urls.js';

/**
 * Google's links are sorted by what they do, never by their host alone
 * (docs/engines.md#google-organic-results): Google's own pages (support articles, Maps, Finance,
 * the about pages, developers.google.com, blog.google) rank for queries about Google and are results
 * like any other page, while the search application's own links (the results page and its tabs,
 * redirect wrappers without a target, preferences, sign-in) are navigation. Where a link sits (a
 * result block, the footer, an answer's feedback panel) is the parsers' business; this module
 * judges the link itself.
 */

/** Google's sites: google.com, google.de, google.co.uk and their subdomains. */
const GOOGLE_SITE = /(^|\.)google\.([a-z]{2,3}|com?\.[a-z]{2})$/i;

/**
 * Paths of the search application on its own host (www.google.*, or the page's origin): the results
 * page (`/search`, every tab and tool), the start page, settings, the advanced form, the block page,
 * ad clicks and sign-in. A page of Google's (`/finance`, `/intl/…/about`, `/maps/…`) is none of these.
 */
const SEARCH_APP_PATH = new RegExp(
  String.raw`^\/(search|webhp|preferences|setprefs|advanced_search|sorry|aclk|pagead|ServiceLogin|AccountChooser|` +
    String.raw`complete|async|gen_204|client_204|xjs)(\/|$)`,
  'i',
);

/** Sign-in and account-chooser paths of accounts.google.*: the sign-in flow, not a page that ranks. */
const SIGN_IN_PATH = /^\/(ServiceLogin|ServiceLoginAuth|signin|v3\/signin|AccountChooser|Logout|SignOutOptions)(\/|$)/i;

/**
 * Hosts that never serve a page of their own: the consent flow, the results cache, static files and
 * ad clicks. Their links are a copy of, or a detour to, something else.
 */
const NEVER_A_PAGE = new RegExp(
  String.raw`^(consent\.google\.([a-z]{2,3}|com?\.[a-z]{2})|webcache\.googleusercontent\.com)$|` +
    String.raw`(^|\.)(gstatic\.com|googleadservices\.com|googlesyndication\.com|doubleclick\.net)$`,
  'i',
);

/**
 * Resolves a result or citation href to the publisher URL: unwraps Google's redirect wrappers
 * (`/url?q=` / `/url?url=`, `/imgres?imgrefurl=`, the translation proxy's `?u=`), drops `#:~:text=`
 * highlights and `utm_*`. Returns null for the search application's own links, relative links
 * inside it and non-http links.
 */
export function publisherUrl(href: string | undefined, pageUrl: string): string | null {
  const u = href ? parseUrl(href, pageUrl) : null;
  if (!u) return null;
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const target = wrappedTarget(u, pageUrl);
  if (target !== undefined) return target === null ? null : publisherUrl(target, pageUrl);
  if (isGoogleNavigation(u, pageUrl)) return null;
  // A relative link stays inside the application that served the page (its tabs, verticals and
  // tools); Google points at pages, its own included, with absolute URLs.
  if (isRelative(href ?? '')) return null;
  return normalizeSourceUrl(u.toString());
}

/**
 * The search application's own link, judged by path and query: on Google's search host (or the
 * page's own origin) the application paths, on accounts.* the sign-in flow, on support.* the
 * contextual help pointers (`?p=ai_overviews`, `?p=ws_results_help`) that the page's own controls
 * carry, and on any Google site the results page's tab and tool links (`tbm=`, `udm=`,
 * `source=lnms|lnt`). A help article (`/…/answer/123`) or a product page is not navigation.
 */
function isGoogleNavigation(u: URL, pageUrl: string): boolean {
  if (NEVER_A_PAGE.test(u.hostname)) return true;
  const onPage = sameOrigin(u, pageUrl);
  if (!onPage && !GOOGLE_SITE.test(u.hostname)) return false;
  const sub = onPage ? '' : u.hostname.toLowerCase().replace(GOOGLE_SITE, '');
  if ((onPage || sub === '' || sub === 'www') && SEARCH_APP_PATH.test(u.pathname)) return true;
  if (sub === 'accounts' && SIGN_IN_PATH.test(u.pathname)) return true;
  if (sub === 'support' && isHelpPointer(u)) return true;
  const source = u.searchParams.get('source');
  return u.searchParams.has('tbm') || u.searchParams.has('udm') || source === 'lnms' || source === 'lnt';
}

/**
 * A contextual help pointer of Google's own controls (`support.google.com/websearch?p=ai_overviews`,
 * the "Learn more" beside an AI answer): the topic key `p=` instead of an article path.
 */
export function isHelpPointer(u: URL | string): boolean {
  const url = typeof u === 'string' ? parseUrl(u, 'https://www.google.com/') : u;
  return (
    url !== null && /^support\./i.test(url.hostname) && GOOGLE_SITE.test(url.hostname) && url.searchParams.has('p')
  );
}

/**
 * The target of a Google redirect wrapper: a string (unwrap it), null (a wrapper without an http
 * target: navigation) or undefined (not a wrapper).
 */
function wrappedTarget(u: URL, pageUrl: string): string | null | undefined {
  if (!GOOGLE_SITE.test(u.hostname) && !sameOrigin(u, pageUrl)) return undefined;
  const path = u.pathname;
  let target: string | null;
  if (path === '/url') target = u.searchParams.get('q') ?? u.searchParams.get('url');
  else if (path === '/imgres') target = u.searchParams.get('imgrefurl');
  else if (/^translate\./i.test(u.hostname) && /^\/(translate|website)$/.test(path)) target = u.searchParams.get('u');
  else return undefined;
  return target && /^https?:\/\//i.test(target) ? target : null;
}

function isRelative(href: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href.trim());
}

function sameOrigin(u: URL, pageUrl: string): boolean {
  try {
    return new URL(pageUrl).origin === u.origin;
  } catch {
    return false;
  }
}

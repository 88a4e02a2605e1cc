import { normalizeSourceUrl, parseUrl } from '../../engines/common/urls.js';

/**
 * URL helpers of docs/analysis.md#s2-3 / docs/engines.md#normalised-answer. The registrable domain uses a small
 * built-in list of multi-label public suffixes (the markets we serve); `tldts` would cover the full
 * Public Suffix List but is not a declared dependency.
 */
const MULTI_LABEL_SUFFIXES: ReadonlySet<string> = new Set([
  'co.kr',
  'or.kr',
  'go.kr',
  'ac.kr',
  'ne.kr',
  're.kr',
  'pe.kr',
  'mil.kr',
  'hs.kr',
  'ms.kr',
  'es.kr',
  'sc.kr',
  'kg.kr',
  'seoul.kr',
  'busan.kr',
  'co.uk',
  'org.uk',
  'ac.uk',
  'gov.uk',
  'ltd.uk',
  'plc.uk',
  'me.uk',
  'net.uk',
  'nhs.uk',
  'co.jp',
  'ne.jp',
  'or.jp',
  'ac.jp',
  'go.jp',
  'com.au',
  'net.au',
  'org.au',
  'edu.au',
  'gov.au',
  'com.cn',
  'net.cn',
  'org.cn',
  'gov.cn',
  'com.tw',
  'com.hk',
  'com.sg',
  'com.my',
  'com.ph',
  'com.vn',
  'co.id',
  'co.in',
  'co.nz',
  'co.za',
  'com.br',
  'com.mx',
  'com.ar',
  'com.tr',
  'github.io',
  'blogspot.com',
  'herokuapp.com',
  'vercel.app',
  'netlify.app',
  'pages.dev',
]);

/** The URL's host name in lower case (`www.` kept, for domain matching); empty when it is no URL. */
export function hostnameOf(url: string): string {
  return parseUrl(url)?.hostname.toLowerCase() ?? '';
}

/** eTLD+1 of a host (`news.example.co.kr` → `example.co.kr`); IP literals and single labels as is. */
export function registrableDomain(host: string): string {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (/^[\d.]+$/.test(h) || h.includes(':')) return h;
  const labels = h.split('.');
  if (labels.length <= 2) return h;
  const lastTwo = labels.slice(-2).join('.');
  return MULTI_LABEL_SUFFIXES.has(lastTwo) ? labels.slice(-3).join('.') : lastTwo;
}

/** The registrable domain without its public suffix (`example.co.kr` → `example`). */
export function domainLabel(host: string): string {
  const reg = registrableDomain(host);
  return reg.split('.')[0] ?? reg;
}

/** Unwraps search-engine redirectors (Google `/url`, Bing `/ck/a`, Naver `/p/crd/rd`). */
function unwrapRedirector(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return raw;
  }
  const host = u.hostname.toLowerCase();
  if (/(^|\.)google\.[a-z.]+$/.test(host) && u.pathname === '/url') {
    const target = u.searchParams.get('q') ?? u.searchParams.get('url');
    if (target && /^https?:\/\//i.test(target)) return target;
  }
  if (/(^|\.)bing\.com$/.test(host) && u.pathname === '/ck/a') {
    const enc = u.searchParams.get('u');
    if (enc?.startsWith('a1')) {
      const decoded = Buffer.from(enc.slice(2).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
      if (/^https?:\/\//i.test(decoded)) return decoded;
    }
  }
  if (host === 'search.naver.com' && u.pathname.startsWith('/p/crd/rd')) {
    const target = u.searchParams.get('u');
    if (target && /^https?:\/\//i.test(target)) return target;
  }
  return raw;
}

/** Normalised citation URL: redirector unwrapped, `#:~:text=` and `utm_*` dropped, host lower-cased. */
export function normalizeCitationUrl(raw: string): string {
  return normalizeSourceUrl(unwrapRedirector(raw.trim()));
}

/** Desktop Naver blog posts wrap the post in a frame; the mobile page carries the text (§2.4). */
export function fetchableUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.hostname === 'blog.naver.com') {
      const m = /^\/([\w-]+)\/(\d+)\/?$/.exec(u.pathname);
      if (m) return `https://m.blog.naver.com/${m[1]}/${m[2]}`;
      const blogId = u.searchParams.get('blogId');
      const logNo = u.searchParams.get('logNo');
      if (blogId && logNo) return `https://m.blog.naver.com/${blogId}/${logNo}`;
    }
  } catch {
    // not a URL: the fetcher reports invalid_url
  }
  return url;
}

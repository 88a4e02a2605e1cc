import type { ExitAddressConfig } from '../../config/engine-config.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { regionLanguage } from '../../engines/search-a/region-language.js';

/** Playwright's per-context proxy settings. */
export interface ContextProxy {
  server: string;
  username?: string;
  password?: string;
}

/** How the leased exit address becomes the context's proxy; null for the host's own connection. */
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
      throw new UpstreamFailure('UPSTREAM_ERROR', `exit ${exit.id}: Chromium cannot authenticate to a SOCKS5 proxy; give browser engines an http(s) proxy`);
    }
    proxy.username = decodeURIComponent(u.username);
    proxy.password = decodeURIComponent(u.password);
  }
  return proxy;
}

/** IANA time zone per country (the capital's, or the most populous zone); UTC for unlisted ones. */
const TIME_ZONES: Readonly<Record<string, string>> = Object.freeze({
  US: 'America/New_York',
  CA: 'America/Toronto',
  MX: 'America/Mexico_City',
  BR: 'America/Sao_Paulo',
  AR: 'America/Argentina/Buenos_Aires',
  GB: 'Europe/London',
  IE: 'Europe/Dublin',
  DE: 'Europe/Berlin',
  AT: 'Europe/Vienna',
  CH: 'Europe/Zurich',
  FR: 'Europe/Paris',
  BE: 'Europe/Brussels',
  NL: 'Europe/Amsterdam',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  IT: 'Europe/Rome',
  SE: 'Europe/Stockholm',
  NO: 'Europe/Oslo',
  DK: 'Europe/Copenhagen',
  FI: 'Europe/Helsinki',
  PL: 'Europe/Warsaw',
  CZ: 'Europe/Prague',
  TR: 'Europe/Istanbul',
  UA: 'Europe/Kyiv',
  IL: 'Asia/Jerusalem',
  SA: 'Asia/Riyadh',
  AE: 'Asia/Dubai',
  IN: 'Asia/Kolkata',
  TH: 'Asia/Bangkok',
  VN: 'Asia/Ho_Chi_Minh',
  ID: 'Asia/Jakarta',
  SG: 'Asia/Singapore',
  HK: 'Asia/Hong_Kong',
  TW: 'Asia/Taipei',
  KR: 'Asia/Seoul',
  JP: 'Asia/Tokyo',
  AU: 'Australia/Sydney',
  NZ: 'Pacific/Auckland',
  ZA: 'Africa/Johannesburg',
});

/** Locale, Accept-Language and time zone a real user in `country` would have. */
export function regionOfContext(country: string): { locale: string; timezoneId: string; acceptLanguage: string } {
  const region = regionLanguage(country);
  return { locale: region.locale, timezoneId: TIME_ZONES[region.country] ?? 'UTC', acceptLanguage: region.acceptLanguage };
}

/** Headers the browser sets itself per request type; forcing them on every request would look odd. */
const BROWSER_OWNED = new Set(['accept', 'accept-encoding', 'connection', 'content-length', 'host', 'upgrade-insecure-requests']);

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

/**
 * Headless Chromium announces itself as "HeadlessChrome"; a desktop Chrome string of the same
 * major version keeps the user agent consistent with the browser actually used (upstreams.md 1.2).
 */
export function desktopUserAgent(browserVersion: string): string {
  const major = /^(\d+)/.exec(browserVersion)?.[1] ?? '147';
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** CDP `Emulation.UserAgentMetadata` (the members we set; playwright-core does not export its protocol types). */
export interface UserAgentMetadata {
  brands: Array<{ brand: string; version: string }>;
  fullVersion: string;
  platform: string;
  platformVersion: string;
  architecture: string;
  bitness: string;
  model: string;
  mobile: boolean;
}

/** Client hints (Sec-CH-UA-*, `navigator.userAgentData`) that agree with `desktopUserAgent`. */
export function desktopUserAgentMetadata(browserVersion: string): UserAgentMetadata {
  const major = /^(\d+)/.exec(browserVersion)?.[1] ?? '147';
  const brands = [
    { brand: 'Chromium', version: major },
    { brand: 'Google Chrome', version: major },
    { brand: 'Not?A_Brand', version: '99' },
  ];
  return { brands, fullVersion: browserVersion, platform: 'Linux', platformVersion: '', architecture: 'x86', bitness: '64', model: '', mobile: false };
}

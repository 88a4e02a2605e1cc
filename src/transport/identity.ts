/**
 * The browser every upstream request claims to come from: its user agents and the language and
 * time zone a real user in a country would have. One place, so that all engines and the browser
 * pool present the same, current browser, and a version bump is one edit.
 */

/** The Chrome major version every fixed desktop user agent claims (the headless browser claims its own). */
const CHROME_MAJOR = '147';

const WINDOWS_CHROME =
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, ` +
  `like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Safari/537.36`;

/**
 * User agents for requests sent over plain HTTP. Sites serve their full pages to a current desktop
 * browser, and WAFs flag library defaults. Each is overridable per deployment through
 * `upstream.headers['user-agent']`.
 */
export const USER_AGENTS = Object.freeze({
  /** Desktop Chrome on Windows, the most common browser. */
  desktopChrome: WINDOWS_CHROME,
  /** Desktop Edge (Chromium) of the same version: Microsoft's upstreams serve a degraded page to other clients. */
  desktopEdge: `${WINDOWS_CHROME} Edg/${CHROME_MAJOR}.0.0.0`,
  /** Safari on an iPhone, for upstreams' mobile pages. */
  mobileSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, ' +
    'like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
});

function majorOf(browserVersion: string): string {
  return /^(\d+)/.exec(browserVersion)?.[1] ?? CHROME_MAJOR;
}

/**
 * Headless Chromium announces itself as "HeadlessChrome"; a desktop Chrome string of the same
 * major version keeps the user agent consistent with the browser actually used (docs/engines.md#google-access).
 */
export function desktopUserAgent(browserVersion: string): string {
  return (
    `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, ` +
    `like Gecko) Chrome/${majorOf(browserVersion)}.0.0.0 Safari/537.36`
  );
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
  const major = majorOf(browserVersion);
  const brands = [
    { brand: 'Chromium', version: major },
    { brand: 'Google Chrome', version: major },
    { brand: 'Not?A_Brand', version: '99' },
  ];
  return {
    brands,
    fullVersion: browserVersion,
    platform: 'Linux',
    platformVersion: '',
    architecture: 'x86',
    bitness: '64',
    model: '',
    mobile: false,
  };
}

/** The language of a country's users (docs/engines.md#region-parameters). */
export interface RegionLocale {
  /** Upper-case ISO 3166-1 alpha-2 country. */
  country: string;
  /** Primary language subtag, e.g. `ko`. */
  language: string;
  /** BCP 47 locale, e.g. `ko-KR`. */
  locale: string;
}

/** Locale by country. */
const LOCALES: Readonly<Record<string, string>> = Object.freeze({
  US: 'en-US',
  GB: 'en-GB',
  IE: 'en-IE',
  AU: 'en-AU',
  NZ: 'en-NZ',
  CA: 'en-CA',
  IN: 'en-IN',
  SG: 'en-SG',
  ZA: 'en-ZA',
  KR: 'ko-KR',
  JP: 'ja-JP',
  DE: 'de-DE',
  AT: 'de-AT',
  CH: 'de-CH',
  FR: 'fr-FR',
  BE: 'fr-BE',
  ES: 'es-ES',
  MX: 'es-MX',
  AR: 'es-AR',
  IT: 'it-IT',
  NL: 'nl-NL',
  PT: 'pt-PT',
  BR: 'pt-BR',
  SE: 'sv-SE',
  NO: 'nb-NO',
  DK: 'da-DK',
  FI: 'fi-FI',
  PL: 'pl-PL',
  CZ: 'cs-CZ',
  TR: 'tr-TR',
  UA: 'uk-UA',
  TW: 'zh-TW',
  HK: 'zh-HK',
  ID: 'id-ID',
  TH: 'th-TH',
  VN: 'vi-VN',
  IL: 'he-IL',
  SA: 'ar-SA',
  AE: 'ar-AE',
});

/** A country's locale; unlisted countries get English with the country kept (what Google itself does). */
export function regionLocale(countryCode: string): RegionLocale {
  const country = /^[A-Za-z]{2}$/.test(countryCode) ? countryCode.toUpperCase() : 'US';
  const locale = LOCALES[country] ?? `en-${country}`;
  return { country, language: locale.split('-')[0] as string, locale };
}

/**
 * A browser-like Accept-Language for `locale` (e.g. `ko-KR`): the locale and its language, and,
 * with `withEnglish`, English after them, as a browser set up in that language sends it.
 */
export function acceptLanguage(locale: string, withEnglish = false): string {
  const language = locale.split('-')[0] as string;
  const own = `${locale},${language};q=0.9`;
  return withEnglish && language !== 'en' ? `${own},en-US;q=0.8,en;q=0.6` : own;
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

/** Locale, Accept-Language and time zone a real user in `country` would have (a browser context's settings). */
export function browserRegion(country: string): { locale: string; timezoneId: string; acceptLanguage: string } {
  const region = regionLocale(country);
  return {
    locale: region.locale,
    timezoneId: TIME_ZONES[region.country] ?? 'UTC',
    acceptLanguage: acceptLanguage(region.locale, true),
  };
}

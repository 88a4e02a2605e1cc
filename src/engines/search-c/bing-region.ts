import { acceptLanguage, regionLocale } from '../../transport/identity.js';

/**
 * Bing region parameters (docs/engines.md#bing-request, #region-parameters): `mkt` is Microsoft's preferred
 * locale signal, `cc` the country, `setlang` the UI language; the `_EDGE_CD` / `_EDGE_S` cookies and
 * `Accept-Language` must agree with them or Bing mixes locales.
 */
export interface BingRegion {
  /** Upper-case ISO country, sent as `cc`. */
  cc: string;
  /** Market such as `ko-KR`. */
  mkt: string;
  /** UI language such as `ko`. */
  lang: string;
}

/**
 * Countries with a Bing market of their own; the market is the country's locale (src/transport/identity.ts).
 * Countries without one fall back to en-US with their `cc`.
 */
const MARKET_COUNTRIES: ReadonlySet<string> = new Set(
  ['US', 'GB', 'CA', 'AU', 'IN', 'IE', 'NZ', 'SG', 'ZA', 'KR', 'JP', 'TW', 'HK', 'DE', 'AT', 'CH', 'FR'].concat([
    'BE',
    'ES',
    'MX',
    'AR',
    'IT',
    'NL',
    'BR',
    'PT',
    'PL',
    'SE',
    'DK',
    'NO',
    'FI',
    'TR',
  ]),
);
/** Markets Bing has where the shared locale table names none (its browser identity falls back to English). */
const OWN_MARKETS: Readonly<Record<string, string>> = Object.freeze({ CN: 'zh-CN', RU: 'ru-RU' });

function marketOf(cc: string): string {
  if (OWN_MARKETS[cc]) return OWN_MARKETS[cc];
  return MARKET_COUNTRIES.has(cc) ? regionLocale(cc).locale : 'en-US';
}

export function bingRegion(country: string): BingRegion {
  const cc = country.toUpperCase();
  const mkt = marketOf(cc);
  const lang = mkt.slice(0, mkt.indexOf('-'));
  return { cc, mkt, lang };
}

/** Query parameters carrying the region (appended to every /search request). */
export function regionParams(r: BingRegion): Record<string, string> {
  return { cc: r.cc, setlang: r.lang, mkt: r.mkt };
}

/** Headers carrying the region: locale cookies and a matching Accept-Language. */
export function regionHeaders(r: BingRegion): Record<string, string> {
  return {
    'accept-language': acceptLanguage(r.mkt),
    cookie: `_EDGE_CD=m=${r.mkt}&u=${r.lang}; _EDGE_S=mkt=${r.mkt}&ui=${r.lang}`,
  };
}

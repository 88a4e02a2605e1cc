import { acceptLanguage } from '../../transport/identity.js';

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

/** Markets Bing knows, by country. Countries without their own market fall back to en-US with their `cc`. */
const MARKETS: Readonly<Record<string, string>> = Object.freeze({
  US: 'en-US',
  GB: 'en-GB',
  CA: 'en-CA',
  AU: 'en-AU',
  IN: 'en-IN',
  IE: 'en-IE',
  NZ: 'en-NZ',
  SG: 'en-SG',
  ZA: 'en-ZA',
  KR: 'ko-KR',
  JP: 'ja-JP',
  CN: 'zh-CN',
  TW: 'zh-TW',
  HK: 'zh-HK',
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
  BR: 'pt-BR',
  PT: 'pt-PT',
  PL: 'pl-PL',
  SE: 'sv-SE',
  DK: 'da-DK',
  NO: 'nb-NO',
  FI: 'fi-FI',
  TR: 'tr-TR',
  RU: 'ru-RU',
});

export function bingRegion(country: string): BingRegion {
  const cc = country.toUpperCase();
  const mkt = MARKETS[cc] ?? 'en-US';
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

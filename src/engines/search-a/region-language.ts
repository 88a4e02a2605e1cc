import { acceptLanguage, regionLocale } from '../../transport/identity.js';

/**
 * Country -> interface language for region-aware upstreams (docs/engines.md#region-parameters). Google takes `hl`
 * (UI language) and `gl` (country); `Accept-Language` must agree with `hl`, or the page mixes
 * languages and looks less like a real browser.
 */
export interface RegionLanguage {
  /** Upper-case ISO 3166-1 alpha-2 country. */
  country: string;
  /** Lower-case country code, as Google's `gl`. */
  gl: string;
  /** Google `hl` value (a language, or language-REGION where Google distinguishes them). */
  hl: string;
  /** Primary language subtag, e.g. `ko`. */
  language: string;
  /** BCP 47 locale, e.g. `ko-KR`. */
  locale: string;
  /** A browser-like Accept-Language header consistent with `locale`. */
  acceptLanguage: string;
}

/** Countries where Google's `hl` is a regional variant, or an older code, rather than the plain language. */
const GOOGLE_HL: Readonly<Record<string, string>> = Object.freeze({
  PT: 'pt-PT',
  BR: 'pt-BR',
  NO: 'no',
  TW: 'zh-TW',
  HK: 'zh-HK',
  IL: 'iw',
});

/** The country's locale (src/transport/identity.ts) with Google's `hl` and `gl` for it. */
export function regionLanguage(countryCode: string): RegionLanguage {
  const { country, language, locale } = regionLocale(countryCode);
  return {
    country,
    gl: country.toLowerCase(),
    hl: GOOGLE_HL[country] ?? language,
    language,
    locale,
    acceptLanguage: acceptLanguage(locale, true),
  };
}

/**
 * Country -> interface language for region-aware upstreams (docs/engines.md#region-parameters). Google takes `hl`
 * (UI language) and `gl` (country); `Accept-Language` must agree with `hl`, or the page mixes
 * languages and looks less like a real browser. Kept engine-neutral so other engines can reuse it.
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

/** locale by country; `hl` differs from the language only where Google uses a regional variant. */
const LOCALES: Readonly<Record<string, { locale: string; hl?: string }>> = Object.freeze({
  US: { locale: 'en-US' },
  GB: { locale: 'en-GB' },
  IE: { locale: 'en-IE' },
  AU: { locale: 'en-AU' },
  NZ: { locale: 'en-NZ' },
  CA: { locale: 'en-CA' },
  IN: { locale: 'en-IN' },
  SG: { locale: 'en-SG' },
  ZA: { locale: 'en-ZA' },
  KR: { locale: 'ko-KR' },
  JP: { locale: 'ja-JP' },
  DE: { locale: 'de-DE' },
  AT: { locale: 'de-AT' },
  CH: { locale: 'de-CH' },
  FR: { locale: 'fr-FR' },
  BE: { locale: 'fr-BE' },
  ES: { locale: 'es-ES' },
  MX: { locale: 'es-MX' },
  AR: { locale: 'es-AR' },
  IT: { locale: 'it-IT' },
  NL: { locale: 'nl-NL' },
  PT: { locale: 'pt-PT', hl: 'pt-PT' },
  BR: { locale: 'pt-BR', hl: 'pt-BR' },
  SE: { locale: 'sv-SE' },
  NO: { locale: 'nb-NO', hl: 'no' },
  DK: { locale: 'da-DK' },
  FI: { locale: 'fi-FI' },
  PL: { locale: 'pl-PL' },
  CZ: { locale: 'cs-CZ' },
  TR: { locale: 'tr-TR' },
  UA: { locale: 'uk-UA' },
  TW: { locale: 'zh-TW', hl: 'zh-TW' },
  HK: { locale: 'zh-HK', hl: 'zh-HK' },
  ID: { locale: 'id-ID' },
  TH: { locale: 'th-TH' },
  VN: { locale: 'vi-VN' },
  IL: { locale: 'he-IL', hl: 'iw' },
  SA: { locale: 'ar-SA' },
  AE: { locale: 'ar-AE' },
});

/** Falls back to English with the country kept, which is what Google itself does for unlisted regions. */
export function regionLanguage(countryCode: string): RegionLanguage {
  const country = /^[A-Za-z]{2}$/.test(countryCode) ? countryCode.toUpperCase() : 'US';
  const entry = LOCALES[country] ?? { locale: `en-${country}` };
  const language = entry.locale.split('-')[0] as string;
  const acceptLanguage =
    language === 'en' ? `${entry.locale},en;q=0.9` : `${entry.locale},${language};q=0.9,en-US;q=0.8,en;q=0.6`;
  return { country, gl: country.toLowerCase(), hl: entry.hl ?? language, language, locale: entry.locale, acceptLanguage };
}

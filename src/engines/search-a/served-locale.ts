import type { CheerioAPI } from 'cheerio';
import type { EngineLocale } from '../engine-result.js';
import { collapse } from './answer-render.js';

/**
 * Where Google says it served a page for (docs/engines.md#google-served-region). Two signals of its own, both on real
 * pages of 2019–2021 (test/real/google-corpus.test.ts):
 * - the footer names the country the results are for (`#fbar`, its first line: "Germany", "Sverige", "ドイツ"; from
 *   2022 "United States - From your IP address"), in the page's interface language;
 * - the root element's `lang` is the interface language, often with the region (`en-DE`, `ar-AE`).
 * The footer wins for the country: `lang` carries a region only on some pages, and then the same one.
 */
export function googleServedLocale($: CheerioAPI): EngineLocale | null {
  const lang = ($('html').attr('lang') ?? '').trim();
  const tag = parseTag(lang);
  const footer = footerCountry($, tag?.language ?? 'en');
  const signals: string[] = [];
  if (footer) signals.push('google footer');
  if (tag) signals.push('html lang');
  if (signals.length === 0) return null;
  return {
    country: footer ?? tag?.region ?? null,
    language: tag?.language ?? null,
    signal: signals.join(', '),
  };
}

/** `en-DE` → language `en`, region `DE`; null for an empty or malformed tag. */
function parseTag(lang: string): { language: string; region: string | null } | null {
  try {
    const loc = new Intl.Locale(lang);
    return { language: loc.language, region: loc.region && /^[A-Z]{2}$/.test(loc.region) ? loc.region : null };
  } catch {
    return null;
  }
}

/**
 * The footer's country line as an ISO code: `.Q8LRLc` (the class Google gave it through 2021), `.dfB0uf` (2022: "United
 * States - From your IP address"), else the footer's first
 * text that names a country in the page's language or English. Null when the footer names none (its location line is
 * filled by script on later pages).
 */
function footerCountry($: CheerioAPI, language: string): string | null {
  const footer = $('#fbar');
  if (footer.length === 0) return null;
  const candidates = [
    footer.find('.Q8LRLc').first().text(),
    footer.find('.dfB0uf').first().text(),
    ...footer
      .find('span, div')
      .slice(0, 12)
      .toArray()
      .map((e) => ($(e).children().length === 0 ? $(e).text() : '')),
  ];
  for (const text of candidates) {
    const name = normalName(collapse(text));
    if (!name) continue;
    const code = countryByName(language).get(name) ?? countryByName('en').get(name);
    if (code) return code;
  }
  return null;
}

const REGION_CODES: readonly string[] = (() => {
  const out: string[] = [];
  for (let a = 65; a <= 90; a++) for (let b = 65; b <= 90; b++) out.push(String.fromCharCode(a, b));
  return out;
})();
const byLanguage = new Map<string, ReadonlyMap<string, string>>();
/** Languages whose names are kept: a page names its own, so a few are in use; the map never grows past this. */
const MAX_LANGUAGES = 32;

/** Every ISO 3166 country's name in `language` (ICU's, as Node ships it), to its code. */
function countryByName(language: string): ReadonlyMap<string, string> {
  const known = byLanguage.get(language);
  if (known) return known;
  const names = new Map<string, string>();
  let display: Intl.DisplayNames | null = null;
  try {
    display = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
  } catch {
    display = null;
  }
  if (display)
    for (const code of REGION_CODES) {
      const name = display.of(code);
      // Codes ICU does not know come back as undefined or as the code itself; unions and outlying groups are not
      // countries; a retired code (DD, YU) is an alias of its successor, which carries the name.
      if (!name || name === code || NOT_COUNTRIES.has(code) || !isCanonicalRegion(code)) continue;
      const key = normalName(name);
      if (!names.has(key)) names.set(key, code);
    }
  if (byLanguage.size >= MAX_LANGUAGES) byLanguage.clear();
  byLanguage.set(language, names);
  return names;
}

/** Region codes ICU names that are no country a page is served for. */
const NOT_COUNTRIES: ReadonlySet<string> = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);

function isCanonicalRegion(code: string): boolean {
  try {
    return Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`;
  } catch {
    return false;
  }
}

function normalName(s: string): string {
  return s.normalize('NFKC').toLowerCase().trim();
}

import type { PageMetadata } from '../types.js';

/**
 * Production metadata of a page (§2.11.3): publication / modification dates in the priority order
 * of htmldate's clue families (Barbaresi 2020), author, publisher. Deterministic, no model.
 */
type DateSource = 'json_ld' | 'meta' | 'time_element' | 'url' | 'text' | 'none';

export interface PageDates {
  publishedAt: string | null;
  modifiedAt: string | null;
  dateSource: DateSource;
}

export interface Author {
  name: string;
  kind: 'person' | 'organization' | 'unknown';
  source: 'json_ld' | 'meta' | 'html' | 'readability' | 'text';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

export function typesOf(node: Obj): string[] {
  const t = node['@type'];
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string');
}

/** `YYYY-MM-DD` from an ISO-like string or a few textual forms; null if not a plausible date. */
export function toIsoDate(raw: string, fetchedAt: number): string | null {
  const s = raw.trim();
  let y: number, m: number, d: number;
  const iso =
    /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(s) ??
    /(?<!\d)(\d{4})\.\s?(\d{1,2})\.\s?(\d{1,2})\.?/.exec(s) ??
    /(\d{4})년\s?(\d{1,2})월\s?(\d{1,2})일/.exec(s);
  const compact = /^(\d{4})(\d{2})(\d{2})(?:\D|$)/.exec(s);
  const english = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})\b/i.exec(s);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (compact) [y, m, d] = [Number(compact[1]), Number(compact[2]), Number(compact[3])];
  else if (english) {
    const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
    [y, m, d] = [
      Number(english[3]),
      months.indexOf((english[1] ?? '').slice(0, 3).toLowerCase()) + 1,
      Number(english[2]),
    ];
  } else return null;
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const t = Date.UTC(y, m - 1, d);
  if (t < Date.UTC(1995, 0, 1) || t > fetchedAt + 86_400_000) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function jsonLdArticles(meta: PageMetadata): Obj[] {
  return meta.jsonLd.filter(isObj);
}

export function pageDates(meta: PageMetadata | null, url: string, text: string | null, fetchedAt: number): PageDates {
  const result = (publishedAt: string | null, modifiedAt: string | null, dateSource: DateSource): PageDates => ({
    publishedAt,
    modifiedAt,
    dateSource,
  });
  const date = (v: unknown) => (typeof v === 'string' ? toIsoDate(v, fetchedAt) : null);
  if (meta) {
    for (const node of jsonLdArticles(meta)) {
      const pub = date(node.datePublished);
      const mod = date(node.dateModified);
      if (pub || mod) return result(pub, mod, 'json_ld');
    }
    const m = meta.meta;
    const pub = date(
      m['article:published_time'] ??
        m['og:published_time'] ??
        m.datepublished ??
        m.date ??
        m.pubdate ??
        m['dc.date.issued'],
    );
    const mod = date(m['article:modified_time'] ?? m.datemodified);
    if (pub || mod) return result(pub, mod, 'meta');
    const timed = meta.timeElements.map((t) => toIsoDate(t, fetchedAt)).find((x) => x !== null);
    if (timed) return result(timed, null, 'time_element');
  }
  const fromUrl =
    /\/((?:19|20)\d{2})\/(\d{1,2})\/(\d{1,2})(?:\/|$)/.exec(url) ??
    /(?<!\d)((?:19|20)\d{2})(\d{2})(\d{2})(?!\d)/.exec(url);
  if (fromUrl) {
    const d = toIsoDate(`${fromUrl[1]}-${fromUrl[2]}-${fromUrl[3]}`, fetchedAt);
    if (d) return result(d, null, 'url');
  }
  if (text) {
    const head = text.slice(0, 3000);
    // The value starts at its first non-space character, so the whitespace before it is taken one way only.
    const published = /(?:Published|Posted|입력|작성일|등록일?)(?:\s*:)?\s*(\S[^\n]{5,39})/i.exec(head);
    const pub = published?.[1] ? toIsoDate(published[1], fetchedAt) : null;
    const modified = /(?:Updated|Modified|수정일?)(?:\s*:)?\s*(\S[^\n]{5,39})/i.exec(head);
    const mod = modified?.[1] ? toIsoDate(modified[1], fetchedAt) : null;
    if (pub || mod) return result(pub, mod, 'text');
  }
  return result(null, null, 'none');
}

function cleanAuthor(raw: string): string | null {
  const s = raw
    .replace(/(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.]+/g, '')
    .replace(/^\s*by\s+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!s || /^https?:\/\//i.test(s) || s.length > 80) return null;
  return s;
}

export function pageAuthor(meta: PageMetadata | null, text: string | null): Author | null {
  if (meta) {
    for (const node of jsonLdArticles(meta)) {
      const authors = node.author;
      for (const a of Array.isArray(authors) ? authors : [authors]) {
        const name =
          typeof a === 'string' ? cleanAuthor(a) : isObj(a) && str(a.name) ? cleanAuthor(str(a.name) ?? '') : null;
        if (!name) continue;
        const kind = isObj(a)
          ? typesOf(a).includes('Organization')
            ? 'organization'
            : typesOf(a).includes('Person')
              ? 'person'
              : 'unknown'
          : 'unknown';
        return { name, kind, source: 'json_ld' };
      }
    }
    const metaName = cleanAuthor(meta.meta.author ?? meta.meta['article:author'] ?? '');
    if (metaName) return { name: metaName, kind: 'unknown', source: 'meta' };
    const html = meta.htmlAuthors.map(cleanAuthor).find((x) => x !== null);
    if (html) return { name: html, kind: 'unknown', source: 'html' };
    const byline = meta.readabilityByline ? cleanAuthor(meta.readabilityByline) : null;
    if (byline) return { name: byline, kind: 'unknown', source: 'readability' };
  }
  const reporter = text ? /([가-힣]{2,4})\s?기자/.exec(text.slice(0, 5000)) : null;
  if (reporter?.[1]) return { name: reporter[1], kind: 'person', source: 'text' };
  return null;
}

export function publisherOf(meta: PageMetadata | null): string | null {
  if (!meta) return null;
  for (const node of jsonLdArticles(meta)) {
    const p = node.publisher;
    const name = isObj(p) ? str(p.name) : str(p);
    if (name) return name;
  }
  return null;
}

import { domainLabel, hostnameOf } from '../../common/urls.js';
import { detectLanguage, norm } from '../../text/norm.js';
import { finalHost, type PreparedSource } from '../core.js';
import type { Entity } from '../types.js';
import { pageAuthor, pageDates, publisherOf, typesOf } from './page-facts.js';

/**
 * Source ownership and type (§2.11.3) by the deterministic rules: domain label, site name /
 * publisher, marketplace or social path; static domain lists, then structured data, then URL
 * patterns. The model fallback (rule 4) is in model-classification.ts.
 */
export type SourceType =
  | 'institutional'
  | 'reference'
  | 'ugc_forum'
  | 'ugc_social'
  | 'review_site'
  | 'marketplace'
  | 'news'
  | 'editorial'
  | 'vendor_page'
  | 'other'
  | 'unknown';
export type MediaClass = 'owned' | 'earned' | 'ugc' | 'vendor' | 'unknown';

const DOMAIN_TYPES: ReadonlyArray<[SourceType, readonly string[]]> = [
  ['reference', ['wikipedia.org', 'namu.wiki', 'terms.naver.com', 'britannica.com']],
  [
    'ugc_forum',
    [
      'reddit.com',
      'quora.com',
      'stackoverflow.com',
      'stackexchange.com',
      'kin.naver.com',
      'cafe.naver.com',
      'dcinside.com',
      'clien.net',
      'ppomppu.co.kr',
      'theqoo.net',
      'fmkorea.com',
      'ruliweb.com',
      'instiz.net',
      '82cook.com',
      'teamblind.com',
      'okky.kr',
    ],
  ],
  [
    'ugc_social',
    [
      'blog.naver.com',
      'm.blog.naver.com',
      'tistory.com',
      'brunch.co.kr',
      'velog.io',
      'medium.com',
      'youtube.com',
      'youtu.be',
      'instagram.com',
      'tiktok.com',
      'x.com',
      'twitter.com',
      'facebook.com',
      'threads.net',
    ],
  ],
  [
    'review_site',
    [
      'g2.com',
      'capterra.com',
      'trustpilot.com',
      'yelp.com',
      'rtings.com',
      'consumerreports.org',
      'tripadvisor.com',
      'tripadvisor.co.kr',
      'tripadvisor.co.uk',
    ],
  ],
  [
    'marketplace',
    [
      'coupang.com',
      '11st.co.kr',
      'gmarket.co.kr',
      'auction.co.kr',
      'smartstore.naver.com',
      'shopping.naver.com',
      'danawa.com',
      'enuri.com',
      'ebay.com',
      'walmart.com',
      'etsy.com',
      'aliexpress.com',
    ],
  ],
  [
    'news',
    [
      'n.news.naver.com',
      'news.naver.com',
      'v.daum.net',
      'yna.co.kr',
      'chosun.com',
      'joongang.co.kr',
      'donga.com',
      'hani.co.kr',
      'mk.co.kr',
      'hankyung.com',
      'etnews.com',
      'zdnet.co.kr',
      'reuters.com',
      'apnews.com',
      'nytimes.com',
      'wsj.com',
      'bbc.com',
      'bbc.co.uk',
      'cnbc.com',
      'theverge.com',
      'techcrunch.com',
      'cnn.com',
      'theguardian.com',
      'bloomberg.com',
      'forbes.com',
      'washingtonpost.com',
    ],
  ],
];

/** Host equals an entry or is a subdomain of it; `amazon.*` matches any suffix. */
function domainType(host: string): SourceType | null {
  if (
    /(^|\.)(gov|mil|edu|int)(\.[a-z]{2})?$/.test(host) ||
    /\.(go|ac|mil)\.kr$/.test(host) ||
    /(^|\.)(who\.int|un\.org)$/.test(host)
  )
    return 'institutional';
  if (/(^|\.)amazon\.[a-z.]+$/.test(host)) return 'marketplace';
  if (/(^|\.)bbc\.[a-z.]+$/.test(host)) return 'news';
  for (const [type, list] of DOMAIN_TYPES) if (list.some((d) => host === d || host.endsWith(`.${d}`))) return type;
  return null;
}

function structuredType(jsonLd: readonly unknown[]): SourceType | null {
  const types = new Set(
    jsonLd.flatMap((n) => (typeof n === 'object' && n !== null ? typesOf(n as Record<string, unknown>) : [])),
  );
  if (types.has('QAPage') || types.has('DiscussionForumPosting')) return 'ugc_forum';
  if (types.has('NewsArticle') || types.has('ReportageNewsArticle')) return 'news';
  if (types.has('Review') || types.has('AggregateRating')) return 'review_site';
  if (types.has('Product') || types.has('Offer')) return 'vendor_page';
  if (types.has('Article') || types.has('BlogPosting')) return 'editorial';
  return null;
}

interface Ownership {
  relation: 'owned' | 'not_owned' | 'unknown';
  entityId: string | null;
  method: 'domain_label' | 'site_name' | 'publisher_jsonld' | 'path_segment' | 'model' | null;
  /**
   * The model's own stated confidence (capped at 0.7) when `method` is `model`; null for a rule, whose accuracy has
   * not been measured (a constant per rule would be a figure with no basis).
   */
  confidence: number | null;
}

type TypeMethod = 'domain_list' | 'structured_data' | 'url_pattern' | 'model';

export interface SourceMeta {
  sourceId: string;
  ownership: Ownership;
  sourceType: SourceType;
  mediaClass: MediaClass;
  typeMethod: TypeMethod | null;
  publishedAt: string | null;
  modifiedAt: string | null;
  dateSource: string;
  author: ReturnType<typeof pageAuthor>;
  publisher: string | null;
  siteName: string | null;
  language: string | null;
}

const compact = (s: string) =>
  norm(s)
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, '');

function ownership(
  host: string,
  url: string,
  siteName: string | null,
  publisher: string | null,
  entities: readonly Entity[],
): Ownership {
  const label = domainLabel(host);
  for (const e of entities)
    if (compact(e.name) !== '' && compact(e.name) === label)
      return { relation: 'owned', entityId: e.id, method: 'domain_label', confidence: null };
  for (const e of entities) {
    if (siteName && compact(siteName) === compact(e.name))
      return { relation: 'owned', entityId: e.id, method: 'site_name', confidence: null };
    if (publisher && compact(publisher) === compact(e.name))
      return { relation: 'owned', entityId: e.id, method: 'publisher_jsonld', confidence: null };
  }
  let first = '';
  try {
    first = decodeURIComponent(new URL(url).pathname.split('/')[1] ?? '').replace(/^@/, '');
  } catch {
    first = '';
  }
  const shopHosts =
    /(^|\.)(smartstore\.naver\.com|brand\.naver\.com|youtube\.com|instagram\.com|tiktok\.com|x\.com|facebook\.com)$/;
  if (first && shopHosts.test(host)) {
    for (const e of entities)
      if (compact(first) === compact(e.name))
        return { relation: 'owned', entityId: e.id, method: 'path_segment', confidence: null };
  }
  if (entities.length === 0) return { relation: 'unknown', entityId: null, method: null, confidence: null };
  // A Latin name that differs from the domain label is evidence of not owning the site; a Hangul
  // name against a romanised domain is not (삼성 vs samsung), unless the site names itself.
  const latinOnly = entities.every((e) => !/\p{Script=Hangul}/u.test(e.name));
  if (latinOnly) return { relation: 'not_owned', entityId: null, method: 'domain_label', confidence: null };
  if (siteName || publisher)
    return {
      relation: 'not_owned',
      entityId: null,
      method: siteName ? 'site_name' : 'publisher_jsonld',
      confidence: null,
    };
  return { relation: 'unknown', entityId: null, method: null, confidence: null };
}

export function mediaClassOf(type: SourceType, owned: boolean): MediaClass {
  if (owned) return 'owned';
  if (['news', 'editorial', 'review_site', 'reference', 'institutional'].includes(type)) return 'earned';
  if (type === 'ugc_forum' || type === 'ugc_social') return 'ugc';
  if (type === 'vendor_page' || type === 'marketplace') return 'vendor';
  return 'unknown';
}

export function sourceMetadata(s: PreparedSource, entities: readonly Entity[]): SourceMeta {
  const page = s.record?.page ?? null;
  const meta = page?.metadata ?? null;
  const host = finalHost(s);
  const finalUrl = page?.finalUrl ?? s.normalizedUrl;
  const publisher = publisherOf(meta);
  const siteName = meta?.siteName ?? null;
  const own = ownership(host, finalUrl, siteName, publisher, entities);

  let sourceType: SourceType | null = domainType(host) ?? domainType(hostnameOf(s.normalizedUrl));
  let typeMethod: TypeMethod | null = sourceType ? 'domain_list' : null;
  if (!sourceType && meta) {
    sourceType = structuredType(meta.jsonLd);
    if (sourceType) typeMethod = 'structured_data';
  }
  if (!sourceType && /\/(pricing|products?|shop)(\/|$)/i.test(safePath(finalUrl))) {
    sourceType = 'vendor_page';
    typeMethod = 'url_pattern';
  }
  const type: SourceType = sourceType ?? (s.text.source === 'none' ? 'unknown' : 'other');
  // Without a fetch there is no fetch time to bound dates by; URL dates are still plausible.
  const dates = pageDates(meta, finalUrl, page?.text ?? null, page?.fetchedAt ?? Number.MAX_SAFE_INTEGER);
  const lang = meta?.htmlLang?.toLowerCase().split('-')[0] ?? (page?.text ? detectLanguage(page.text) : null);
  return {
    sourceId: s.sourceId,
    ownership: own,
    sourceType: type,
    mediaClass: mediaClassOf(type, own.relation === 'owned'),
    typeMethod,
    publishedAt: dates.publishedAt,
    modifiedAt: dates.modifiedAt,
    dateSource: dates.dateSource,
    author: pageAuthor(meta, page?.text ?? null),
    publisher,
    siteName,
    language: lang === 'und' ? null : (lang ?? null),
  };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

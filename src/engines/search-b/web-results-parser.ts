import { cheerio } from '../lazy-modules.js';
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { isAdHref, sourceUrlOf } from './naver-links.js';
import { collapse, isBlockPage, isNoResultsPage } from './naver-signals.js';

export interface WebResult {
  url: string;
  title: string;
  snippet: string;
}

/** Which marker generation matched (recorded in `raw` so drift shows up before wrong data does). */
type WebResultsTier = 'fds' | 'legacy';

export interface ParsedWebResults {
  tier: WebResultsTier;
  results: WebResult[];
  /** Block or captcha markers on a page whose results are all there: noted, not fatal: the answer is usable. */
  walls: string[];
}

/** 2025-2026 design-system markup (docs/engines.md#naver-web-results). */
const FDS_ITEM = 'div.fds-web-doc-root, div.fds-web-normal-doc-root';
/** Pre-2025 markup, still served on some tabs and caches. */
const LEGACY_ITEM = 'ul.lst_total > li.bx';
/** Sponsored sections ("파워링크") are never results. */
const AD_SECTION = '[class*="power"], [id*="power"], .sp_nkeyword, .ad_section';

/**
 * Parses the web-documents tab (`ssc=tab.web.all`). Decision order: result items (current
 * markers, then legacy); without any, a block page, then the legitimate "no results" text, else the
 * layout moved. A block marker beside results is noted in `walls`. Results are ordered by the page's `data-url`
 * sequence, de-duplicated by URL.
 */
export function parseWebResults(html: string): ParsedWebResults {
  const $ = cheerio().load(html);
  // A block marker ends the attempt only when the page has no usable result.
  const blocked = isBlockPage($);
  const blockPage = () => new UpstreamFailure('UPSTREAM_BLOCKED', 'naver web tab: block/captcha page');

  const fdsItems = topLevel($, $(FDS_ITEM), FDS_ITEM);
  const legacyItems = $(LEGACY_ITEM);
  let tier: WebResultsTier;
  let results: WebResult[];
  if (fdsItems.length > 0) {
    tier = 'fds';
    results = fdsItems.toArray().flatMap((el) => fdsResult($, $(el)) ?? []);
  } else if (legacyItems.length > 0) {
    tier = 'legacy';
    results = legacyItems.toArray().flatMap((el) => legacyResult($, $(el)) ?? []);
  } else {
    if (blocked) throw blockPage();
    if (isNoResultsPage($)) throw new UpstreamFailure('NO_ANSWER', 'naver web tab: no results for the query');
    throw new UpstreamFailure(
      'LAYOUT_CHANGED',
      'naver web tab: no result items (fds-web-doc-root / lst_total) and no empty-result text',
    );
  }
  if (results.length === 0) {
    if (blocked) throw blockPage();
    if (isNoResultsPage($)) throw new UpstreamFailure('NO_ANSWER', 'naver web tab: no results for the query');
    throw new UpstreamFailure('LAYOUT_CHANGED', `naver web tab: ${tier} items present but none had a title and URL`);
  }
  return { tier, results: orderByDataUrl($, dedupe(results)), walls: blocked ? ['block_marker'] : [] };
}

/** Items nested inside another matched item would be counted twice. */
function topLevel($: CheerioAPI, items: Cheerio<Element>, selector: string): Cheerio<Element> {
  return items.filter((_, el) => $(el).parents(selector).length === 0);
}

function isAd($: CheerioAPI, item: Cheerio<Element>): boolean {
  if (item.closest(AD_SECTION).length > 0) return true;
  return item
    .find('a[href]')
    .toArray()
    .some((a) => isAdHref($(a).attr('href')));
}

function fdsResult($: CheerioAPI, item: Cheerio<Element>): WebResult | null {
  if (isAd($, item)) return null;
  const headline = item.find('.sds-comps-text-type-headline1').first();
  const title = collapse(headline.text());
  // data-url names the document itself; the first link is often the site's profile (root) link.
  const url =
    sourceUrlOf(item.attr('data-url') ?? item.find('[data-url]').first().attr('data-url')) ??
    sourceUrlOf(headline.closest('a').attr('href')) ??
    firstSourceLink($, item);
  if (!title || !url) return null;
  const snippet = collapse(item.find('.sds-comps-text-type-body1').first().text());
  return { url, title, snippet };
}

/**
 * Title links of legacy items: `a.link_tit` in web-document lists, `a.total_tit` in the VIEW
 * (blog/cafe) lists that share the `ul.lst_total > li.bx` markup. Knowledge-iN items have neither
 * (a question, not a document) and are skipped.
 */
const LEGACY_TITLE_LINK = 'a.link_tit, a.total_tit';

function legacyResult($: CheerioAPI, item: Cheerio<Element>): WebResult | null {
  if (isAd($, item)) return null;
  const link = item.find(LEGACY_TITLE_LINK).first();
  const title = collapse(link.text());
  const url = sourceUrlOf(link.attr('href'));
  if (!title || !url) return null;
  const snippet = collapse(
    item
      .find('div.total_dsc_wrap a.api_txt_lines, .api_txt_lines.total_dsc, .total_dsc, .api_txt_lines.dsc_txt')
      .first()
      .text(),
  );
  return { url, title, snippet };
}

function firstSourceLink($: CheerioAPI, item: Cheerio<Element>): string | null {
  for (const a of item.find('a[href]').toArray()) {
    const url = sourceUrlOf($(a).attr('href'));
    if (url) return url;
  }
  return null;
}

function dedupe(results: WebResult[]): WebResult[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    if (seen.has(r.url)) return false;
    seen.add(r.url);
    return true;
  });
}

/**
 * The sequence of `data-url` attributes is the most reliable page order (docs/engines.md#naver-web-results);
 * results without one keep their document order after the ordered ones.
 */
function orderByDataUrl($: CheerioAPI, results: WebResult[]): WebResult[] {
  const rank = new Map<string, number>();
  $('[data-url]').each((_, el) => {
    const url = sourceUrlOf($(el).attr('data-url'));
    if (url && !rank.has(url)) rank.set(url, rank.size);
  });
  return results
    .map((r, i) => ({ r, key: rank.get(r.url) ?? rank.size + i }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.r);
}

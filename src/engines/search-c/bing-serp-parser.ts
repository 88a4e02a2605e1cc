import { cheerio } from '../lazy-modules.js';
import type { CheerioAPI } from 'cheerio';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { displayHost } from '../common/urls.js';
import { unwrapBingLink } from './bing-links.js';
import { checkRequestedPage, parseResultCount, type PageCheck, type ResultCount } from './bing-result-count.js';

export interface BingResult {
  /** Rank across pages: `first` + index on the page. */
  position: number;
  url: string;
  title: string;
  snippet: string;
  site: string;
}

export interface BingSerp {
  results: BingResult[];
  /** Which selector tier found the titles (drift shows up here before it shows up as wrong data). */
  titleTier: 'h2>a' | 'h2 a';
  count: ResultCount | null;
  pageCheck: PageCheck;
}

/** Element selectors of the interstitial (docs/engines.md#bing-blocks); the bare word "captcha" is not a signal. */
const CAPTCHA_SELECTOR = 'div.captcha, #b_captcha, .b_captcha';
/** Localised "There are no results for …" headings of the no-results page. */
const NO_RESULTS_TEXTS = [
  'There are no results for',
  'No results found for',
  '에 대한 검색 결과가 없습니다',
  '검색 결과가 없습니다',
];

/**
 * Parses a Bing results page (docs/engines.md#bing-results, #bing-blocks) in the order of
 * docs/engines.md#failure-order: blocked, legitimate absence, structure, page check, extraction. `first` is
 * the 1-based rank the request asked for.
 */
export function parseBingSerp(html: string, first: number): BingSerp {
  const $ = cheerio().load(html);
  const algos = $('ol#b_results > li.b_algo').not('.b_ad');
  if ($(CAPTCHA_SELECTOR).length > 0 && $('li.b_algo').length === 0) {
    throw new UpstreamFailure('UPSTREAM_BLOCKED', 'bing: captcha interstitial');
  }
  if (algos.length === 0 && isNoResultsPage($)) {
    throw new UpstreamFailure('NO_ANSWER', 'bing: the page says there are no results');
  }
  const list = $('ol#b_results');
  if (list.length === 0) throw new UpstreamFailure('LAYOUT_CHANGED', 'bing: no ol#b_results on the page');
  if (algos.length === 0) {
    // Result-like items under another class mean the marker drifted; an empty list is Bing's silent block.
    if (list.children('li').not('.b_ad, .b_pag, .b_ans').find('h2 a[href]').length > 0) {
      throw new UpstreamFailure('LAYOUT_CHANGED', 'bing: result items present but none is li.b_algo');
    }
    throw new UpstreamFailure('UPSTREAM_BLOCKED', 'bing: silent_empty (no results and no no-results text)');
  }

  const countText = $('span.sb_count').first().text().trim();
  const count = countText ? parseResultCount(countText) : null;
  const pageCheck = checkRequestedPage(count, first);

  let titleTier: BingSerp['titleTier'] = 'h2>a';
  const results: BingResult[] = [];
  const seen = new Set<string>();
  algos.each((_, el) => {
    const item = $(el);
    let link = item.find('h2 > a[href]').first();
    if (link.length === 0) {
      link = item.find('h2 a[href]').first();
      if (link.length > 0) titleTier = 'h2 a';
    }
    const href = link.attr('href');
    if (!href) return;
    const url = unwrapBingLink(href);
    if (seen.has(url)) return;
    seen.add(url);
    const paragraphs = item.find('.b_caption p').length > 0 ? item.find('.b_caption p') : item.find('p');
    const snippet = paragraphs
      .map((_, p) => {
        const copy = $(p).clone();
        copy.find('span.algoSlug_icon').remove();
        return copy.text();
      })
      .get()
      .join(' ');
    const title = clean(link.text());
    results.push({
      position: first + results.length,
      url,
      title: title || displayHost(url),
      snippet: clean(snippet),
      site: clean(item.find('.tptt').first().text()) || displayHost(url),
    });
  });
  if (results.length === 0) throw new UpstreamFailure('LAYOUT_CHANGED', 'bing: li.b_algo items without a title link');
  return { results, titleTier, count, pageCheck };
}

function isNoResultsPage($: CheerioAPI): boolean {
  if ($('li.b_no').length > 0) return true;
  const text = $('#b_results, #b_content, body').first().text();
  return NO_RESULTS_TEXTS.some((t) => text.includes(t));
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

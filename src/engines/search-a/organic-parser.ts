import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { displayHost } from '../common/urls.js';
import { collapse, PEOPLE_ALSO_ASK } from './answer-render.js';
import { publisherUrl } from './google-links.js';

/** One organic result, as the client sees it in `organic`. */
export interface OrganicResult {
  /** Global 1-based rank over organic results only: `(page-1)*10 + local index`. */
  position: number;
  url: string;
  title: string;
  snippet: string;
  site: string;
}

export interface OrganicParse {
  results: OrganicResult[];
  /** Which selector tier matched, so drift shows up in logs before it shows as wrong data. */
  tiers: { root: string; link: string | null; snippet: Record<string, number> };
  skipped: { internal: number; duplicate: number };
}

/** Layered selectors, most stable first (docs/engines.md#google-organic-results). */
const ROOTS = ['#search', '#rso'] as const;
const LINKS: ReadonlyArray<[tier: string, find: (root: Cheerio<Element>) => Cheerio<Element>]> = [
  ['a:has(h3)', (root) => root.find('a[href]').filter((_, a) => a.tagName === 'a' && hasH3(a))],
  ['a[jsname=UWckNb]', (root) => root.find('a[jsname="UWckNb"][href]')],
  ['.yuRUbf > a', (root) => root.find('.yuRUbf > a[href]')],
  // Basic HTML of 2018 and before puts the link inside the title (`h3.r > a`): the last resort.
  ['h3 > a', (root) => root.find('h3 > a[href]')],
];
const WRAPPERS = 'div.MjjYud, div.g, div.tF2Cxc, [data-hveid], [data-sokoban-container]';
const SNIPPETS = ['div.VwiC3b', '[data-sncf="1"]', 'div.IsZvec', 'span.aCOpRe', 'div.s3v9rd'] as const;
/** Blocks whose h3-links are not organic results: ads, People also ask, carousels, AI answers, side panel. */
const NOT_ORGANIC =
  `#tads, #tadsb, #bottomads, [aria-label="Ads"], [data-text-ad], ${PEOPLE_ALSO_ASK}, ` +
  `g-scrolling-carousel, #rhs, [data-attrid="AIOverview"], [data-subtree="aimc"], div.YzCcne[data-mcpr], #m-x-content`;

/** "No results" notices in the languages the service serves most (docs/engines.md#google-organic-results). */
const NO_RESULTS = new RegExp(
  [
    'did not match any documents',
    'No results found for',
    '일치하는 검색결과가 없습니다',
    '에 대한 검색결과가 없습니다',
    'に一致する情報は見つかりませんでした',
    'ergab keine Treffer',
    'keine mit deiner Suchanfrage übereinstimmenden',
    'matchade inte något dokument',
  ].join('|'),
  'i',
);

export function resultRoot($: CheerioAPI): { root: Cheerio<Element>; tier: string } | null {
  for (const sel of ROOTS) {
    const el = $(sel).first();
    if (el.length > 0) return { root: el, tier: sel };
  }
  return null;
}

export function hasNoResultsNotice($: CheerioAPI): boolean {
  return NO_RESULTS.test($('#topstuff').text()) || NO_RESULTS.test($('body').text());
}

/**
 * Organic results of one page; `positionOffset` is `(page-1)*10`. `exclude` is a block already read
 * as something else (the AI Overview found by its heading, which no fixed selector names).
 */
export function parseOrganic(
  $: CheerioAPI,
  pageUrl: string,
  positionOffset: number,
  exclude: Element | null = null,
): OrganicParse {
  const found = resultRoot($);
  // Without #search/#rso the doc's last resort is the whole body, still filtered by the h3-link rule.
  const root = found?.root ?? $('body');
  const rootTier = found?.tier ?? 'body';
  const out: OrganicParse = {
    results: [],
    tiers: { root: rootTier, link: null, snippet: {} },
    skipped: { internal: 0, duplicate: 0 },
  };
  const seen = new Set<string>();
  for (const [tier, find] of LINKS) {
    const anchors = find(root).filter(
      (_, a) => $(a).closest(NOT_ORGANIC).length === 0 && !(exclude && $(a).parents().is(exclude)),
    );
    if (anchors.length === 0) continue;
    out.tiers.link = tier;
    anchors.each((_, el) => {
      const a = $(el);
      const url = publisherUrl(a.attr('href'), pageUrl);
      if (!url) {
        out.skipped.internal++;
        return;
      }
      if (seen.has(url)) {
        out.skipped.duplicate++;
        return;
      }
      seen.add(url);
      const { snippet, tier: snippetTier } = snippetOf($, a);
      out.tiers.snippet[snippetTier] = (out.tiers.snippet[snippetTier] ?? 0) + 1;
      out.results.push({
        position: positionOffset + out.results.length + 1,
        url,
        title: titleOf(a),
        snippet,
        site: siteOf($, a, url),
      });
    });
    break;
  }
  return out;
}

function hasH3(a: Element): boolean {
  const stack = [...a.children];
  while (stack.length > 0) {
    const n = stack.pop();
    if (n && 'tagName' in n) {
      if (n.tagName === 'h3') return true;
      stack.push(...n.children);
    }
  }
  return false;
}

function titleOf(a: Cheerio<Element>): string {
  const h = a.find('h3, [role="heading"]').first();
  if (h.length > 0) return collapse(h.text());
  const c = a.clone();
  c.find('cite, span.VuuXrf').remove();
  return collapse(c.text());
}

/**
 * The result's own wrappers, innermost first: climbing stops at a wrapper that holds another result,
 * so a result without a snippet never borrows its neighbour's.
 */
function ownWrappers($: CheerioAPI, a: Cheerio<Element>): Element[] {
  const out: Element[] = [];
  for (const w of a.parents(WRAPPERS).slice(0, 3).toArray()) {
    const block = $(w);
    if (block.find('h3').length > 1 || block.find('a[jsname="UWckNb"]').length > 1) break;
    out.push(w);
  }
  return out;
}

/** Searches the result's wrappers for the first snippet selector that has text. */
function snippetOf($: CheerioAPI, a: Cheerio<Element>): { snippet: string; tier: string } {
  for (const w of ownWrappers($, a)) {
    for (const sel of SNIPPETS) {
      const text = collapse($(w).find(sel).first().text());
      if (text) return { snippet: text, tier: sel };
    }
  }
  return { snippet: '', tier: 'none' };
}

function siteOf($: CheerioAPI, a: Cheerio<Element>, url: string): string {
  const inWrapper = ownWrappers($, a)[0];
  const name =
    collapse(a.find('span.VuuXrf').first().text()) ||
    (inWrapper ? collapse($(inWrapper).find('span.VuuXrf').first().text()) : '');
  if (name) return name;
  return displayHost(url);
}

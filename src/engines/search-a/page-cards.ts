import type { Cheerio, CheerioAPI } from 'cheerio';
import { isTag, type AnyNode, type Element } from 'domhandler';
import type { AnswerSignals } from '../engine-result.js';
import { parseUrl } from '../common/urls.js';
import { collapse, NOT_DISPLAYED } from './answer-render.js';
import { publisherUrl } from './google-links.js';

/**
 * The commercial and local units of a Google results page (docs/engines.md#google-page-cards): shopping
 * cards (`products`), text ads and sponsored shopping cards (`ads`) and the local pack (`places`). Read
 * by structure and Google's longest-lived class names, each with a fallback, corrected from real pages
 * of 2018-2021 (test/fixtures/real/google/PROVENANCE.md). Every pass visits each card once: linear in
 * the page.
 */
export type PageCards = Pick<AnswerSignals, 'products' | 'ads' | 'places'>;

/** Diagnostics for `raw`: which card marker matched, per kind (null: none on the page). */
export interface PageCardTiers {
  products: string | null;
  ads: string | null;
  places: string | null;
}

/**
 * Shopping (product listing) cards: `.pla-unit` in the sponsored carousel above the results and in the
 * side panel (2015-2022), else any element that carries Google's offer id. The hover card that repeats a
 * card's lines (`.pla-hovercard-*`) is no card of its own.
 */
const PRODUCT_TIERS: ReadonlyArray<[tier: string, selector: string]> = [
  ['pla-unit', '.pla-unit'],
  ['data-offer-id', '[data-offer-id]'],
];
/** Text ads: `[data-text-ad]` (2020-), `li.ads-ad` (2015-2019). */
const AD_TIERS: ReadonlyArray<[tier: string, selector: string]> = [
  ['data-text-ad', '[data-text-ad]'],
  ['ads-ad', 'li.ads-ad'],
];
/** Local pack cards: `.VkpGBb` (2019-), else the card link around a local heading (`rllt__`, 2018). */
const PLACE_TIERS: ReadonlyArray<[tier: string, selector: string]> = [
  ['VkpGBb', '.VkpGBb'],
  ['rllt-heading', 'a:has(> [role="heading"][class*="rllt__"])'],
];

/** Where a product card shows its title, price and merchant (first match wins), then the fallbacks. */
const PRODUCT_TITLE = '.pla-unit-title, a.pla-unit-title-link, [role="heading"], h3, h4';
const PRODUCT_PRICE = '.e10twf, [aria-label^="Current price"]';
const PRODUCT_MERCHANT = '.LbUacb, .zPEcBd';
/** Currency signs and codes a price is shown with; the number stands right after or right before. */
const PRICE_SIGN = /R\$|[$€£¥₩₹]|\b(?:CHF|EUR|USD|GBP|kr|zł)(?![\p{L}])/gu;
const NUMBER_AFTER = /^\s?\d[\d.,\u00a0 ]*/;
const NUMBER_CHAR = /[\d.,\u00a0 ]/;

/**
 * The first price in a text as shown (`€69.00`, `CHF 19.90`, `37,43 €`, `$1,299`): a currency sign with a number
 * beside it. One pass over the signs, each number read once.
 */
export function findPrice(text: string): string | null {
  PRICE_SIGN.lastIndex = 0;
  for (let m = PRICE_SIGN.exec(text); m; m = PRICE_SIGN.exec(text)) {
    const end = m.index + m[0].length;
    const after = NUMBER_AFTER.exec(text.slice(end));
    if (after) return (m[0] + after[0]).trim();
    let start = m.index;
    if (start > 0 && text[start - 1] === ' ') start--;
    let k = start;
    while (k > 0 && NUMBER_CHAR.test(text[k - 1] as string)) k--;
    const before = text.slice(k, start).trim();
    if (/^\d/.test(before)) return `${before}${text.slice(before ? start : m.index, end)}`.trim();
  }
  return null;
}
/**
 * The accessible name of a card's main link: "<title> for <price> from <merchant>" (English pages), read with two
 * searches (a regex with two lazy groups is quadratic on a label with many " for " and no " from ").
 */
function cardLabel(label: string): [title: string, price: string, merchant: string] | null {
  const f = label.indexOf(' for ');
  if (f <= 0) return null;
  const m = label.indexOf(' from ', f + 5);
  if (m < 0 || m === f + 5 || m + 6 >= label.length) return null;
  return [label.slice(0, f), label.slice(f + 5, m), label.slice(m + 6)];
}

/** Currency of a price as shown; null when the sign is shared (`$`) and the page says nothing more. */
const CURRENCY_SIGNS: ReadonlyArray<[sign: RegExp, code: string]> = [
  [/R\$/, 'BRL'],
  [/CA\$|C\$/, 'CAD'],
  [/A\$|AU\$/, 'AUD'],
  [/US\$|USD/, 'USD'],
  [/€|EUR/, 'EUR'],
  [/£|GBP/, 'GBP'],
  [/CHF/, 'CHF'],
  [/₩/, 'KRW'],
  [/₹/, 'INR'],
  [/zł/, 'PLN'],
  [/¥/, 'JPY'],
  [/\$/, 'USD'],
];

const UNSHOWN = new Set(['script', 'style', 'template', 'noscript', 'svg']);

/**
 * Text of an element as a person sees it: hidden parts, scripts and direction marks left out. One walk with a stack
 * of its own (a copy of the element to strip, as before, recursed once per level and overflowed on deep nesting).
 */
function shownText(el: Cheerio<Element>): string {
  const first = el.toArray()[0];
  if (!first) return '';
  const parts: string[] = [];
  const stack: AnyNode[] = [first];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (n.type === 'text') {
      parts.push((n as unknown as { data: string }).data);
      continue;
    }
    if (!isTag(n) || UNSHOWN.has(n.name)) continue;
    if (n !== first && NOT_DISPLAYED.test(n.attribs.style ?? '')) continue;
    // Decorative marks only: a rating's digits are marked aria-hidden beside their spoken label.
    if (n.attribs['aria-hidden'] === 'true' && !n.children.some(isTag) && !/\d/.test(textOf(n))) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as AnyNode);
  }
  return collapse(parts.join('').replace(/[\u200e\u200f\u202a-\u202e]/g, ''));
}

/** The text directly inside an element without child elements. */
function textOf(e: Element): string {
  return e.children.map((c) => (c.type === 'text' ? (c as unknown as { data: string }).data : '')).join('');
}

/**
 * One copy of a line the page repeats for its layout widths: the side panel's cards hold the same title
 * and merchant in two or three spans of which the page's width shows one (`rhsl4`, `rhsg3`, `rhsg4`).
 */
function oneCopy(text: string): string {
  for (let k = 2; k <= 4; k++) {
    if (text.length % k !== 0) continue;
    const part = text.slice(0, text.length / k);
    if (part.length > 0 && part.repeat(k) === text) return part.trim();
  }
  return text;
}

/** Units Google labels as ads: a shopping card inside one is sponsored. */
const AD_UNIT = '[class*="commercial-unit"], #tvcap, #tads, #tadsb, #bottomads';

/**
 * Outermost matches of the first tier that matches, outside hover cards and hidden blocks, each with whether it
 * stands inside a unit labelled as ads. One walk of the page from its root that does not descend into a match, a
 * hover card or a hidden block: linear however deeply matches nest (asking each match for its ancestors was not).
 */
function cards(
  $: CheerioAPI,
  tiers: ReadonlyArray<[tier: string, selector: string]>,
): { tier: string; els: Element[]; inAdUnit: Set<Element> } | null {
  const adUnits = new Set($(AD_UNIT).toArray());
  for (const [tier, selector] of tiers) {
    const matches = new Set($(selector).toArray());
    if (matches.size === 0) continue;
    const els: Element[] = [];
    const inAdUnit = new Set<Element>();
    const stack: Array<[node: AnyNode, inAd: boolean]> = [...($.root()[0]?.children ?? [])]
      .reverse()
      .map((n) => [n, false]);
    for (let top = stack.pop(); top; top = stack.pop()) {
      const [node, inAd] = top;
      if (!isTag(node)) continue;
      if ((node.attribs.class ?? '').includes('pla-hovercard') || node.attribs.hidden !== undefined) continue;
      const here = inAd || adUnits.has(node);
      if (matches.has(node)) {
        if (!NOT_DISPLAYED.test(node.attribs.style ?? '')) {
          els.push(node);
          if (here) inAdUnit.add(node);
        }
        continue;
      }
      for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i] as AnyNode, here]);
    }
    if (els.length > 0) return { tier, els, inAdUnit };
  }
  return null;
}

/** The nearest element from `from` up to `card` (both included) that `pick` accepts: never above the card. */
function closestWithin(from: Element | undefined, card: Element, pick: (e: Element) => boolean): Element | null {
  for (let e: Element | null | undefined = from; e; e = e.parent && isTag(e.parent) ? e.parent : null) {
    if (pick(e)) return e;
    if (e === card) return null;
  }
  return null;
}

export function currencyOf(price: string): string | null {
  for (const [sign, code] of CURRENCY_SIGNS) if (sign.test(price)) return code;
  return null;
}

/** The first link of a card that leads to a page outside Google (the merchant's or the advertiser's). */
function outboundUrl(card: Cheerio<Element>, pageUrl: string): string | null {
  for (const a of card.find('a[href]').toArray()) {
    if (NOT_DISPLAYED.test(a.attribs.style ?? '')) continue;
    const url = publisherUrl(a.attribs.href, pageUrl);
    if (url) return url;
  }
  return null;
}

function readProduct($: CheerioAPI, el: Element, position: number, pageUrl: string) {
  const card = $(el);
  const label = cardLabel(collapse(card.find('a[aria-label]').first().attr('aria-label') ?? ''));
  const title =
    oneCopy(shownText(card.find(PRODUCT_TITLE))) ||
    label?.[0] ||
    collapse(card.find('img[alt]').first().attr('alt') ?? '').replace(/^Image of /, '');
  const priceEl = shownText(card.find(PRODUCT_PRICE));
  const price = findPrice(priceEl) ?? findPrice(shownText(card)) ?? label?.[1] ?? null;
  const merchant = oneCopy(shownText(card.find(PRODUCT_MERCHANT))) || label?.[2] || null;
  return {
    position,
    title,
    url: outboundUrl(card, pageUrl),
    price,
    currency: price ? currencyOf(price) : null,
    merchant,
    rating: ratingOf(card),
  };
}

function readAd($: CheerioAPI, el: Element, position: number, pageUrl: string) {
  const card = $(el);
  const title = shownText(card.find('[role="heading"], h3').first());
  // The landing page Google records on the title link (`data-pcu`), else the title link itself when it
  // leads out, else the address the ad shows (`cite`, the display URL line); sitelinks come last.
  const pcu = card.find('a[data-pcu]').first().attr('data-pcu')?.split(',')[0];
  const heading = card.find('[role="heading"], h3').toArray()[0];
  const titleLink = closestWithin(heading, el, (e) => e.name === 'a' && e.attribs.href !== undefined)?.attribs.href;
  const shown = shownText(card.find('cite').first());
  const url =
    (pcu ? publisherUrl(pcu, pageUrl) : null) ??
    (titleLink ? publisherUrl(titleLink, pageUrl) : null) ??
    (shown ? publisherUrl(`https://${shown.replace(/^https?:\/\//, '').split(/\s/)[0]}`, pageUrl) : null) ??
    outboundUrl(card, pageUrl);
  return { position, title, url };
}

function readPlace($: CheerioAPI, el: Element, position: number, pageUrl: string) {
  const card = $(el);
  const heading = card.find('.dbg0pd, [role="heading"]').first();
  const name = shownText(heading);
  // Detail lines: the `rllt__details` block's lines, else the lines after the heading (2018).
  const details = card.find('.rllt__details').first();
  const lines = (details.length > 0 ? details.children() : heading.nextAll())
    .toArray()
    .map((l) => shownText($(l)))
    .filter((l) => l.length > 0);
  // Line 1 is rating and category, line 2 the address with the phone after a middle dot.
  const addressLine = lines[1] ?? '';
  const address =
    addressLine
      .split(/\s[·⋅]\s/)
      .map((s) => s.trim())
      .find((s) => s.length > 0 && !/^[\d\s()+\-./]+$/.test(s)) ?? null;
  return { position, name, url: outboundUrl(card, pageUrl), address, rating: ratingOf(card) };
}

/** A card's star rating (0-5): the shown figure (`.BTtC6e`, `3,9`), else the spoken "Rated 3.9 out of 5". */
function ratingOf(card: Cheerio<Element>): number | null {
  const shown = collapse(card.find('.BTtC6e, .yi40Hd').first().text());
  const spoken = collapse(card.find('[aria-label*=" 5"]').first().attr('aria-label') ?? '');
  for (const s of [shown, spoken]) {
    const m = /(\d)[.,](\d)|^(\d)$/.exec(s);
    if (!m) continue;
    const n = m[3] !== undefined ? Number(m[3]) : Number(`${m[1]}.${m[2]}`);
    if (n >= 0 && n <= 5) return n;
  }
  return null;
}

/**
 * The page's cards. Sponsored shopping cards are products and also sponsored units: `ads` lists the text
 * ads and the sponsored shopping cards in page order (docs/contract.md#answer-signals).
 */
export function parsePageCards($: CheerioAPI, pageUrl: string): { cards: PageCards; tiers: PageCardTiers } {
  const productCards = cards($, PRODUCT_TIERS);
  const adCards = cards($, AD_TIERS);
  const placeCards = cards($, PLACE_TIERS);
  const products = (productCards?.els ?? [])
    .map((el, i) => readProduct($, el, i + 1, pageUrl))
    .filter((p) => p.title.length > 0);
  const sponsoredProducts = new Set(
    (productCards?.els ?? []).filter((el) => productCards?.inAdUnit.has(el) || clicksThroughAds(el)),
  );
  const adEls = [...(adCards?.els ?? []), ...sponsoredProducts];
  // Page order: a document-order sort of the few units found.
  const wanted = new Set<Element>(adEls);
  const order = new Map<Element, number>();
  $('*').each((i, e) => {
    if (wanted.has(e as Element)) order.set(e as Element, i);
  });
  adEls.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const ads = adEls
    .map((el, i) =>
      sponsoredProducts.has(el) ? readSponsoredProduct($, el, i + 1, pageUrl) : readAd($, el, i + 1, pageUrl),
    )
    .filter((a) => a.title.length > 0);
  const places = (placeCards?.els ?? [])
    .map((el, i) => readPlace($, el, i + 1, pageUrl))
    .filter((p) => p.name.length > 0);
  return {
    cards: { products: renumber(products), ads: renumber(ads), places: renumber(places) },
    tiers: { products: productCards?.tier ?? null, ads: adCards?.tier ?? null, places: placeCards?.tier ?? null },
  };
}

function readSponsoredProduct($: CheerioAPI, el: Element, position: number, pageUrl: string) {
  const p = readProduct($, el, position, pageUrl);
  return { position, title: p.title, url: p.url };
}

/**
 * A shopping card is sponsored when its unit is labelled as ads (AD_UNIT, found by the walk in `cards`) or its
 * click goes through Google's ad click (`/aclk`, googleadservices): the sponsored carousel of 2015-2022. Free
 * listings ("Popular products") link the merchant directly.
 */
function clicksThroughAds(el: Element): boolean {
  const links: Element[] = [];
  const stack: AnyNode[] = [...el.children];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (!isTag(n)) continue;
    if (n.name === 'a' && n.attribs.href !== undefined) links.push(n);
    for (const c of n.children) stack.push(c);
  }
  return links.some((a) => {
    const u = parseUrl(a.attribs.href ?? '', pageOrigin);
    return u !== null && (/\/aclk$/.test(u.pathname) || /(^|\.)googleadservices\.com$/.test(u.hostname));
  });
}
const pageOrigin = 'https://www.google.com/';

function renumber<T extends { position: number }>(items: T[]): T[] {
  return items.map((item, i) => ({ ...item, position: i + 1 }));
}

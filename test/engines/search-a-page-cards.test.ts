/**
 * The Google page-cards parser's fallbacks and edge cases, on small pages written here; the recorded markup itself is
 * scored on real pages in test/real/google-corpus.test.ts.
 */
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { currencyOf, findPrice, parsePageCards } from '../../src/engines/search-a/page-cards.js';
import { parseResultsPage } from '../../src/engines/search-a/results-page.js';

const PAGE = 'https://www.google.com/search?q=x';
const cardsOf = (html: string) => parsePageCards(cheerio.load(html), PAGE);

describe('Google page cards', () => {
  it('reads a shopping card from its link label and image when the title, price and merchant lines are gone', () => {
    const { cards, tiers } = cardsOf(
      `<div id="search"><div data-offer-id="7"><a href="https://shop.example/p/1" ` +
        `aria-label="Trail Shoe 2 for $89.99 from Example Shop"></a><img alt="Image of Trail Shoe 2">` +
        `<span>$89.99</span><span aria-label="Rated 4.6 out of 5,"></span></div></div>`,
    );
    expect(tiers.products).toBe('data-offer-id');
    expect(cards.products).toEqual([
      {
        position: 1,
        title: 'Trail Shoe 2',
        url: 'https://shop.example/p/1',
        price: '$89.99',
        currency: 'USD',
        merchant: 'Example Shop',
        rating: 4.6,
      },
    ]);
    // A free listing: its link goes straight to the merchant, so it is no sponsored unit.
    expect(cards.ads).toEqual([]);
  });

  it('lists text ads and sponsored shopping cards in page order, the hover card and hidden links left out', () => {
    const { cards } = cardsOf(
      `<div id="tvcap"><div class="commercial-unit-desktop-top">` +
        `<div class="pla-unit"><a style="display:none" href="/aclk?sa=l&adurl="></a>` +
        `<a href="https://m.example/a"></a><div class="pla-unit-title"><span>Kettle A</span></div>` +
        `<div class="e10twf">€19,90</div><div class="LbUacb">M Shop</div>` +
        '<div class="pla-hovercard-content-ellip">' +
        '<div class="pla-unit"><div class="pla-unit-title">Kettle A</div></div></div>' +
        `</div></div></div>` +
        `<div id="search"><div id="rso"></div></div>` +
        `<div id="bottomads"><div data-text-ad="1"><a data-pcu="https://land.example/x,https://other.example/" ` +
        `href="https://www.googleadservices.com/pagead/aclk?x"><div role="heading">Kettles on sale</div></a></div></div>`,
    );
    expect(cards.products).toHaveLength(1);
    expect(cards.products?.[0]).toMatchObject({
      title: 'Kettle A',
      price: '€19,90',
      currency: 'EUR',
      merchant: 'M Shop',
    });
    expect(cards.ads).toEqual([
      { position: 1, title: 'Kettle A', url: 'https://m.example/a' },
      { position: 2, title: 'Kettles on sale', url: 'https://land.example/x' },
    ]);
  });

  it('takes the address the ad shows when its only links are Google ad clicks', () => {
    const { cards } = cardsOf(
      `<div id="tads"><ol><li class="ads-ad"><a href="https://www.googleadservices.com/pagead/aclk?sa=L">` +
        `<h3>Cloud hosting\u200e</h3></a><cite>www.host.example/cloud</cite></li></ol></div>`,
    );
    expect(cards.ads).toEqual([{ position: 1, title: 'Cloud hosting', url: 'https://www.host.example/cloud' }]);
  });

  it('reads a place: name, the address before the phone, the rating figure, the website and no Google link', () => {
    const { cards } = cardsOf(
      `<div class="VkpGBb"><a href="/search?q=a&ludocid=1"><div class="dbg0pd"><span>Café Uno</span></div>` +
        `<span class="rllt__details"><div><span class="BTtC6e">4,2</span> (31) · Café</div>` +
        `<div>Hauptstr. 5 · 030 1234567</div><div>Open ⋅ Closes 6PM</div></span></a>` +
        `<a href="https://maps.google.com/maps?source=lnms">Route</a><a href="https://cafe-uno.example/">Website</a></div>` +
        `<div class="VkpGBb"><div class="dbg0pd">No Site</div><span class="rllt__details"><div>No reviews</div>` +
        `<div>030 555 · Berlin</div></span></div>`,
    );
    expect(cards.places).toEqual([
      { position: 1, name: 'Café Uno', url: 'https://cafe-uno.example/', address: 'Hauptstr. 5', rating: 4.2 },
      { position: 2, name: 'No Site', url: null, address: 'Berlin', rating: null },
    ]);
  });

  it('gives empty lists on a full page without cards, null on the basic-HTML layout', () => {
    const full = parseResultsPage(
      {
        html: '<div id="search"><div id="rso"><div class="g"><a href="https://a.example/"><h3>A</h3></a></div></div></div>',
        status: 200,
        finalUrl: PAGE,
      },
      { page: 1, readAio: true },
    );
    expect(full.cards).toEqual({ products: [], ads: [], places: [] });
    const basic = parseResultsPage(
      {
        html: '<body><div><a href="/url?q=https://a.example/"><h3>A</h3></a></div></body>',
        status: 200,
        finalUrl: PAGE,
      },
      { page: 1, readAio: true },
    );
    expect(basic.cards).toBeNull();
  });

  it('finds a price beside its sign in one pass, and names the currency', () => {
    expect(findPrice('ab 1.299,00 € inkl. MwSt.')).toBe('1.299,00 €');
    expect(findPrice('CHF 19.90')).toBe('CHF 19.90');
    expect(findPrice('R$ 45,90 à vista')).toBe('R$ 45,90');
    expect(findPrice('Kristall 3 MS, no price')).toBeNull();
    expect([currencyOf('R$ 45,90'), currencyOf('₩12,000'), currencyOf('37,43 €'), currencyOf('12 kr')]).toEqual([
      'BRL',
      'KRW',
      'EUR',
      null,
    ]);
    // Long runs of digits and signs without a price: linear, so these end well inside the test's timeout (a
    // quadratic reading would take minutes).
    expect(findPrice(`${'1'.repeat(200_000)}x`)).toBeNull();
    expect(findPrice('€'.repeat(100_000))).toBeNull();
    expect(findPrice(`${'., '.repeat(100_000)}€`)).toBeNull();
  });

  it('keeps only the outermost of nested cards, and reads hostile labels and nesting in one pass', () => {
    // 20,000 offer cards nested in one another inside an ad unit, the outermost with a label full of " for " and no
    // " from ": one card (the outermost), sponsored by its unit; the label gives nothing and the title comes from the
    // image. Asking each match for its ancestors, or a label regex with two lazy groups, was quadratic here.
    const depth = 20_000;
    const label = `Shoe${' for x'.repeat(50_000)}`;
    const html =
      `<div id="search"><div id="tads"><div data-offer-id="n"><a href="https://www.googleadservices.com/pagead/aclk?x" aria-label="${label}"></a>` +
      '<div data-offer-id="n">'.repeat(depth) +
      `<img alt="Image of Deep Shoe"><span>€10.00</span>` +
      '</div>'.repeat(depth + 1) +
      '</div></div>';
    const { cards } = cardsOf(html);
    expect(cards.products).toHaveLength(1);
    expect(cards.products?.[0]).toMatchObject({ title: 'Deep Shoe', price: '€10.00', currency: 'EUR' });
    expect(cards.ads).toHaveLength(1);
  });
});

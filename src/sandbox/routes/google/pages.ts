import { type Landscape, withOwnSite } from '../../landscape/recommendations.js';
import type { SimContext } from '../../sim-context.js';
import { countryName, fakeAnswerCitations, fakeFacts, fakeResults, type PageLocale } from './content.js';
import { escapeHtml } from '../../../text/html-escape.js';

/**
 * HTML of the simulated Google pages, in the shapes of the hand-made fixtures in
 * test/fixtures/search-a (docs/engines.md#google-organic-results, #google-ai-overview,
 * #google-walls-and-blocks, #google-ai-mode). Generated from the query only.
 */
function documentShell(locale: PageLocale, title: string, body: string): string {
  return (
    `<!doctype html>
<html itemscope="" itemtype="http://schema.org/SearchResultsPage" lang="${escapeHtml(locale.hl)}">
<head><meta charset="UTF-8"><meta content="origin" name="referrer"><title>${escapeHtml(title)}</title>
<style>.MjjYud{margin:0 0 30px}.VwiC3b{line-height:1.58}</style></head>
<body class="srp">
<div id="searchform"><form action="/search" role="search">` +
    `<textarea name="q" aria-label="Search">${escapeHtml(title)}</textarea></form></div>
${body}
<div role="contentinfo"><div id="footcnt"><div id="fbar"><div class="fbar b2hzT"><div class="b0KoTc B4GxFc">` +
    `<span class="Q8LRLc">${escapeHtml(countryName(locale.hl, locale.country))}</span></div></div>` +
    `<a href="https://policies.google.com/privacy?hl=${escapeHtml(locale.hl)}">Privacy</a></div></div></div>
</body>
</html>
`
  );
}

export interface SerpOptions {
  query: string;
  topic: string;
  page: number;
  locale: PageLocale;
  withAio: boolean;
  /**
   * Which cards page 1 shows: a sponsored shopping unit, the text ad (and the shopping unit's sponsorship), a local
   * pack.
   */
  cards: { products: boolean; ads: boolean; places: boolean };
  /** The brands the AI Overview names (landscape/); asked for only when the page has one. */
  brands: () => Landscape;
}

/** A results page: ads, optional AI Overview (page 1), organic results, People-also-ask, pagination. */
export function serpPage(sim: SimContext, o: SerpOptions): string {
  const results = fakeResults(sim, o.topic, o.page, o.locale);
  const blocks = results.map((r, i) => {
    // Some results come wrapped in Google's redirector, as in the legacy layouts.
    const href =
      sim.hash(o.topic, `wrap${i}${o.page}`) % 4 === 0
        ? `/url?q=${encodeURIComponent(r.url)}&sa=U&ved=2ahUKEw${i}`
        : r.url;
    return (
      `<div class="MjjYud"><div class="g tF2Cxc" data-hveid="CA${i}QAA">
  <div class="yuRUbf"><a jsname="UWckNb" href="${escapeHtml(href)}">` +
      `<h3 class="LC20lb MBeuO">${escapeHtml(r.title)}</h3>` +
      `<span class="VuuXrf">${escapeHtml(r.siteName)}</span><cite>${escapeHtml(r.displayUrl)}</cite></a></div>
  <div class="VwiC3b" data-sncf="1"><span>${escapeHtml(r.snippet)}</span></div>
</div></div>`
    );
  });
  if (o.page === 1) {
    blocks.splice(
      2,
      0,
      peopleAlsoAsk(sim, o.topic, o.locale),
      `<div class="MjjYud"><div class="g"><a href="/search?q=${encodeURIComponent(o.topic)}&amp;udm=2">` +
        `<h3>Images: ${escapeHtml(o.topic)}</h3></a></div></div>`,
    );
  }
  const aio = o.withAio && o.page === 1 ? aiOverview(sim, o.query, o.topic, o.locale, o.brands()) : '';
  const next =
    o.page < 10
      ? `<a id="pnnext" href="/search?q=${encodeURIComponent(o.query)}&amp;start=${o.page * 10}" ` +
        `aria-label="${escapeHtml(o.locale.nextAria)}"><span>${escapeHtml(o.locale.nextLabel)}</span></a>`
      : '';
  const ads =
    o.page === 1 && o.cards.ads
      ? `<div id="tads" aria-label="Ads"><div data-text-ad="1"><span>Sponsored</span><a href="https://ads.example.com/landing"><h3>${escapeHtml(o.topic)} — Official Store</h3></a></div></div>`
      : '';
  const shopping = o.page === 1 && o.cards.products ? shoppingUnit(sim, o.topic, o.locale, o.cards.ads) : '';
  if (o.page === 1 && o.cards.places) blocks.splice(1, 0, localPack(sim, o.topic, o.locale));
  const body =
    `<div id="main"><div id="cnt"><div id="center_col" role="main">
  <div id="taw">${ads}${shopping}</div>
  <div id="res" role="main"><div id="topstuff"></div>
  <div id="search"><div data-hveid="CAEQAA"><h1 class="bNg8Rb">${escapeHtml(o.locale.resultsHeading)}</h1>
  <div id="rso">
${aio}
${blocks.join('\n')}
  </div></div></div></div>
  <div id="botstuff"><div role="navigation"><table class="AaVjTc"><tr>` +
    `<td class="YyVfkd">${o.page}</td><td>${next}</td></tr></table></div></div>
</div></div></div>`;
  return documentShell(o.locale, `${o.query} - ${o.locale.titleSuffix}`, body);
}

const MERCHANTS = ['Northwind Outfitters', 'shop.example.com', 'Contoso Market', 'Fabrikam Store', 'Tailspin Goods'];
const PLACE_KINDS = ['Store', 'Outlet', 'Service centre', 'Showroom'];
const STREETS = ['Market St', 'Main St', 'Harbour Rd', 'Station Ave', 'Hill St'];

/** The price sign of the page's country, as Google shows prices there. */
function priceOf(locale: PageLocale, cents: number): string {
  if (locale.korean) return `₩${Math.round(cents * 13).toLocaleString('en-US')}`;
  const n = (cents / 100).toFixed(2);
  return (
    { DE: `${n.replace('.', ',')} €`, FR: `${n.replace('.', ',')} €`, GB: `£${n}`, CH: `CHF ${n}` }[locale.country] ??
    `$${n}`
  );
}

/**
 * The sponsored shopping unit above the results as on real pages of 2019-2021 (test/fixtures/real/google,
 * docs/engines.md#google-page-cards): `.commercial-unit-desktop-top` with `.pla-unit` cards, each with its hidden
 * ad-click link, the merchant link, the title (`.pla-unit-title`), the price (`.e10twf`) and the merchant
 * (`.LbUacb`). Without ads (`sandbox:noads`) the cards are free listings: merchant links only, no ad label.
 */
function shoppingUnit(sim: SimContext, topic: string, locale: PageLocale, sponsored: boolean): string {
  const count = 3 + (sim.hash(topic, 'plas') % 3);
  const slug = encodeURIComponent(topic.toLowerCase().replace(/\s+/g, '-'));
  const cards = Array.from({ length: count }, (_, i) => {
    const merchant = MERCHANTS[(sim.hash(topic, `merchant${i}`) + i) % MERCHANTS.length] as string;
    const host = merchant.includes('.') ? merchant : `www.${merchant.toLowerCase().replace(/\s+/g, '')}.example`;
    const url = `https://${host}/p/${slug}-${i + 1}`;
    const title = `${topic} ${['Classic', 'Pro', 'Lite', 'Max', 'Plus'][i % 5]} ${i + 1}`;
    const price = priceOf(locale, 1999 + (sim.hash(topic, `price${i}`) % 20000));
    const click = sponsored
      ? `<a style="display:none" href="/aclk?sa=l&amp;ai=DChcSEw${i}&amp;ae=2&amp;ctype=5&amp;q=&amp;adurl="></a>`
      : '';
    return (
      `<div class="mnr-c pla-unit" data-hveid="CAEQ${i}">${click}` +
      `<a class="plantl pla-unit-single-clickable-target clickable-card" href="${escapeHtml(url)}" ` +
      `aria-label="${escapeHtml(`${title} for ${price} from ${merchant}`)}"></a>` +
      `<div class="pla-unit-container"><div class="orXoSd"><div class="rwVHAc">` +
      `<div class="RnJeZd top pla-unit-title"><a class="plantl pla-unit-title-link" href="${escapeHtml(url)}">` +
      `<span class="pymv4e">${escapeHtml(title)}</span></a></div>` +
      `<div class="e10twf T4OwTb">${escapeHtml(price)}</div>` +
      `<div class="LbUacb"><span class="zPEcBd VZqTOd">${escapeHtml(merchant)}</span></div></div></div></div></div>`
    );
  });
  // Free listings have no recorded markup (docs/engines.md#google-page-cards): the same cards outside the ad unit.
  return sponsored
    ? `<div class="cu-container"><div class="ptJHdc commercial-unit-desktop-top"><div class="q8U8x">` +
        `<span>Ads</span> · <span>Shop "${escapeHtml(topic)}"</span></div>${cards.join('')}</div></div>`
    : `<div class="MjjYud"><div role="heading" aria-level="2">Popular products</div>${cards.join('')}</div>`;
}

/**
 * The local pack as on real pages of 2019-2021 (`.VkpGBb` cards: the name in `.dbg0pd`, then the
 * `.rllt__details` lines: rating and category, address and phone, opening hours; a Website link where the
 * place has one).
 */
function localPack(sim: SimContext, topic: string, locale: PageLocale): string {
  const cards = Array.from({ length: 3 }, (_, i) => {
    const h = sim.hash(topic, `place${i}`);
    const name = `${topic} ${PLACE_KINDS[h % PLACE_KINDS.length] as string} ${String.fromCharCode(65 + i)}`;
    const rating = (30 + (h % 21)) / 10;
    const address = `${10 + (h % 190)} ${STREETS[h % STREETS.length] as string}`;
    const site = i === 0 ? `<a class="yYlJEf L48Cpd" href="https://www.place${h % 1000}.example/">Website</a>` : '';
    return (
      `<div class="VkpGBb"><div class="cXedhc"><a class="C8TUKc rllt__link a-no-hover-decoration" href="#">` +
      `<div class="rllt__tile-label" aria-hidden="true">${String.fromCharCode(65 + i)}</div>` +
      `<div class="dbg0pd"><span>${escapeHtml(name)}</span></div><span class="rllt__details">` +
      `<div><span class="BTtC6e" aria-hidden="true">${rating.toFixed(1)}</span>` +
      `<span aria-label="Rated ${rating.toFixed(1)} out of 5,"></span> (${20 + (h % 300)}) · ` +
      `${escapeHtml(PLACE_KINDS[h % PLACE_KINDS.length] as string)}</div>` +
      `<div>${escapeHtml(address)} · (555) 010-0${100 + i}</div><div>${locale.korean ? '영업 중' : 'Open'} ⋅ 6PM</div>` +
      `</span></a>${site}</div></div>`
    );
  });
  return (
    '<div class="MjjYud"><div jscontroller="AtSb" class="cXedhc-pack">' +
    `<div role="heading" aria-level="2">Places</div>${cards.join('')}</div></div>`
  );
}

/**
 * People also ask as on real pages of late 2025: `jsname="N760b"` around question pairs that unfold
 * an answer with a linked h3 (docs/engines.md#google-ai-overview corrections). Neither an overview nor organic.
 */
function peopleAlsoAsk(sim: SimContext, topic: string, locale: PageLocale): string {
  const facts = fakeFacts(sim, topic, 2, locale);
  const cites = fakeAnswerCitations(sim, `${topic} paa`, 2);
  const pair = (q: string, answer: string, cite: (typeof cites)[0]) =>
    `<div class="related-question-pair" data-q="${escapeHtml(q)}">` +
    `<div role="button" aria-expanded="false"><span>${escapeHtml(q)}</span></div>
    <div jsname="yEVEwb" style="display:none"><span>${escapeHtml(answer)}</span>` +
    `<a href="${escapeHtml(cite.url)}"><h3>${escapeHtml(cite.title)}</h3></a></div></div>`;
  return `<div class="MjjYud"><div jsname="N760b" class="Wt5Tfe"><div class="cUnQKe">
  <div role="heading" aria-level="2"><span>${escapeHtml(locale.peopleAlsoAsk)}</span></div>
  ${pair(locale.korean ? `${topic}란 무엇인가요?` : `What is ${topic}?`, facts[0] ?? '', cites[0] as (typeof cites)[0])}
  ${pair(locale.korean ? `${topic}은 가치가 있나요?` : `Is ${topic} worth it?`, facts[1] ?? '', cites[1] as (typeof cites)[0])}
</div></div></div>`;
}

/**
 * The AI Overview as on real pages of late 2025 (docs/engines.md#google-ai-overview corrections):
 * `div.YzCcne[data-mcpr]` holding `#m-x-content` with the hidden fallback lines, the heading,
 * `[data-subtree="aimc"]` with the prose in `[data-container-id="main-col"]` (its heading and list marked
 * `aria-hidden`, as Google does), source cards whose link is an empty overlay titled by `aria-label`, and the
 * chrome around.
 */
function aiOverview(sim: SimContext, query: string, topic: string, locale: PageLocale, brands: Landscape): string {
  const facts = fakeFacts(sim, topic, 4, locale);
  const cites = withOwnSite(fakeAnswerCitations(sim, topic, 3, 'SEARCH_A'), brands);
  const [c1, c2, c3] = cites as [(typeof cites)[0], (typeof cites)[0], (typeof cites)[0]];
  const card = (c: (typeof cites)[0], href: string) =>
    `<li class="Ndm2cf"><div class="cRH23c">` +
    `<a class="vIWmYe" href="${escapeHtml(href)}" aria-label="${escapeHtml(c.title)}"></a>
        <div class="jdxGff"><span>${escapeHtml(c.host)}</span></div>` +
    `<div class="gpZmoc"><span>${escapeHtml(c.title)}</span></div></div></li>`;
  return (
    `<div class="YzCcne" data-mcpr="" data-mcp="18">` +
    `<div class="q8sySb"><h1 class="VW3apb">${escapeHtml(locale.aioLabel)}</h1>
  <div class="hdzaWe"><div jscontroller="EYwa3d" jsname="dEwkXc" data-aim="1" data-q="${escapeHtml(query)}">
  <div class="D5ad8b" id="m-x-content">
    <div jsname="txosbe" class="OZ9ddf">
      <span class="YWpX0d" style="display:none"><span>${escapeHtml(locale.aioUnavailableNow)}</span>` +
    `<span style="display:none">${escapeHtml(locale.aioNotAvailable)}</span></span>
      <div jsname="cUzNTd" class="Fzsovc" aria-level="2" role="heading">` +
    `<strong>${escapeHtml(locale.aioLabel)}</strong></div>
      <div class="ZKfmAf"><a class="NOo3C" href="https://support.google.com/websearch?p=ai_overviews&amp;hl=${escapeHtml(locale.hl)}">${escapeHtml(locale.learnMore)}</a></div>
    </div>
    <div data-subtree="aimc"><div data-container-id="main-col" class="mZJni">
      <div class="n6owBd"><span>${escapeHtml(facts[0] ?? '')} ` +
    `<a class="H23r4e" href="${escapeHtml(c1.url)}#:~:text=${encodeURIComponent(topic)}">${escapeHtml(c1.host)}</a>` +
    `</span>
        <span class="WBgIic"><a class="PMDqCb" href="${escapeHtml(c1.url)}"></a>` +
    `<button class="vDOt8c"><span>${escapeHtml(c1.host)}</span><span>&nbsp;+1</span></button></span></div>
      <div class="otQkpb" role="heading" aria-level="3" aria-hidden="true">${escapeHtml(locale.keyPoints)}</div>
      <ul class="KsbFXc" aria-hidden="true">
        <li><span>${escapeHtml(facts[1] ?? '')}</span></li>
        <li><span>${escapeHtml(facts[2] ?? '')}</span><span jscontroller="udAs2b">` +
    `<button data-amic="true" aria-label="View related links"></button></span></li>
      </ul>
      <div class="n6owBd"><span>${escapeHtml(facts[3] ?? '')}</span></div>${
        brands.sentence ? `\n      <div class="n6owBd"><span>${escapeHtml(brands.sentence)}</span></div>` : ''
      }
    </div>
    <div class="ofHStc"><ul class="aajpme">
      ${card(c1, c1.url)}
      ${card(c2, `${c2.url}?utm_source=google`)}
      ${card(c3, c3.url)}
    </ul></div></div>
    <div jsname="rPRdsc" role="button" aria-expanded="false" aria-controls="m-x-content">` +
    `<span>${escapeHtml(locale.showMore)}</span></div>
    <div class="DuQANe"><span>${escapeHtml(locale.mistakes)}</span></div>
  </div></div></div></div></div>`
  );
}

/**
 * The inside of the AI Mode answer container in two parts, as it streams in on the real page (the
 * prose opening first, then the rest with the sources): the script-rendered variant sends them
 * one after the other, the plain page has them joined.
 */
export function aiModeAnswerChunks(
  sim: SimContext,
  topic: string,
  locale: PageLocale,
  brands: Landscape,
): [opening: string, rest: string] {
  const facts = fakeFacts(sim, topic, 5, locale);
  const cites = withOwnSite(fakeAnswerCitations(sim, topic, 2 + (sim.hash(topic, 'aimcites') % 3), 'AIMODE'), brands);
  const first = cites[0] as (typeof cites)[0];
  const withTable = sim.hash(topic, 'table') % 2 === 0;
  const table = withTable
    ? `<h3>${escapeHtml(locale.comparison)}</h3>
        <table><tr><th>${locale.korean ? '항목' : 'Aspect'}</th><th>${locale.korean ? '요약' : 'Summary'}</th></tr>
          <tr><td>${locale.korean ? '가격' : 'Price'}</td><td>${escapeHtml(facts[3] ?? '')}</td></tr>
          <tr><td>${locale.korean ? '품질' : 'Quality'}</td><td>${escapeHtml(facts[4] ?? '')}</td></tr></table>`
    : '';
  const opening =
    `
      <div data-container-id="main-col">
        <p>${escapeHtml(facts[0] ?? '')} <span jscontroller="udAs2b">` +
    `<button data-amic="true" aria-label="Sources, +${cites.length - 1}"></button></span></p>
        <p>${escapeHtml(facts[1] ?? '')} <a class="H23r4e" ` +
    `href="${escapeHtml(first.url)}#:~:text=${encodeURIComponent(topic)}">${escapeHtml(first.host)}</a></p>` +
    (brands.sentence ? `\n        <p>${escapeHtml(brands.sentence)}</p>` : '');
  const rest = `
        <h3>${escapeHtml(locale.keyPoints)}</h3>
        <ol>${facts
          .slice(2, 5)
          .map((f) => `<li>${escapeHtml(f)}</li>`)
          .join('')}</ol>
        ${table}
      </div>
      <button>${escapeHtml(locale.sitesButton(cites.length))}</button>
      <div role="dialog" aria-modal="true" hidden>
        ${cites
          .map((c) => `<a href="${escapeHtml(c.url)}">${escapeHtml(c.title)}<span>${escapeHtml(c.host)}</span></a>`)
          .join('\n        ')}
      </div>
      <button aria-label="Copy text"></button>
      <div data-subtree="aimba"><span>${escapeHtml(locale.mistakes)}</span><a href="https://support.google.com/websearch?p=aimode">${escapeHtml(locale.learnMore)}</a></div>
    `;
  return [opening, rest];
}

/**
 * The AI Mode page around a given container content (`containerAttrs` and `afterTurn` for the script-rendered
 * variant).
 */
export function aiModeDocument(
  query: string,
  topic: string,
  locale: PageLocale,
  container: string,
  extra: { containerAttrs?: string; afterTurn?: string } = {},
): string {
  const body = `<div id="main"><div class="aim-page" role="main">
  <div data-scope-id="turn">
    <span role="heading" aria-level="2">${escapeHtml(topic)}</span>
    <div data-subtree="aimc"${extra.containerAttrs ?? ''}>${container}</div>
  </div>
  <div class="follow-up"><textarea aria-label="Ask a follow up" placeholder="Ask anything"></textarea></div>
</div></div>${extra.afterTurn ?? ''}`;
  return documentShell(locale, `${query} - ${locale.titleSuffix}`, body);
}

/** AI Mode (udm=50): one turn with the answer container, a sources dialog and action buttons. */
export function aiModePage(
  sim: SimContext,
  query: string,
  topic: string,
  locale: PageLocale,
  brands: Landscape,
): string {
  return aiModeDocument(query, topic, locale, aiModeAnswerChunks(sim, topic, locale, brands).join(''));
}

/** A query without hits: the notice in #topstuff and an empty #rso (docs/engines.md#google-organic-results). */
export function noResultsPage(query: string, locale: PageLocale): string {
  const body =
    `<div id="main"><div id="cnt"><div id="center_col" role="main"><div id="res" role="main">
  <div id="topstuff"><div class="card-section" role="heading" aria-level="3">` +
    `<p>${locale.noResults(escapeHtml(query))}</p></div></div>
  <div id="search"><div data-hveid="CAEQAA"><div id="rso"></div></div></div>
</div></div></div></div>`;
  return documentShell(locale, `${query} - ${locale.titleSuffix}`, body);
}

/** The sorry page (docs/engines.md#google-walls-and-blocks), served with HTTP 429. */
export function sorryPage(continueUrl: string): string {
  return (
    `<html>
<head><meta http-equiv="content-type" content="text/html; charset=utf-8">` +
    `<title>${escapeHtml(continueUrl)}</title></head>
<body><div style="max-width:400px;">
<form id="captcha-form" action="index" method="post">
<script src="https://www.google.com/recaptcha/api.js" async defer></script>
<div id="recaptcha" class="g-recaptcha" data-sitekey="6LfwuyUTAAAAAOAmoS0fdqijC2PbbdH4kjq62Y1b" data-s="sandbox"></div>
<input type="hidden" name="q" value="EgQKz7KjGKKc0bIGIjB">` +
    `<input type="hidden" name="continue" value="${escapeHtml(continueUrl)}">
</form>
<div style="font-size:13px;"><b>About this page</b><br><br>Our systems have detected unusual traffic from your ` +
    `computer network. This page checks to see if it's really you sending the requests, and not a robot.<br><br>
IP address: 203.0.113.7<br>Time: 2026-07-01T10:00:00Z<br>URL: ${escapeHtml(continueUrl)}<br></div>
</div></body></html>
`
  );
}

/** Google's terse 5xx page. */
export function serverErrorPage(code: number): string {
  return (
    `<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Error ${code} (Server Error)!!1</title><p>` +
    `<b>${code}.</b> <ins>That's an error.</ins><p>The server encountered a temporary error and could ` +
    `not complete your request.<p>Please try again in 30 seconds. <ins>That's all we know.</ins></html>`
  );
}

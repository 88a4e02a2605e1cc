import fs from 'node:fs';
import zlib from 'node:zlib';
import { JSDOM } from 'jsdom';
import { pruneBoilerplate } from '../../src/engines/web/boilerplate.js';
import { describe, expect, it } from 'vitest';
import { decompress, type PageBytes } from '../../src/engines/web/page-fetch.js';
import { parseSrcset } from '../../src/engines/web/page-images.js';
import { densestParagraphBlock } from '../../src/engines/web/paragraph-block.js';
import { interpretPage } from '../../src/engines/web/page-reader.js';
import { continuesArticle, isPartialPick, readableProse, widens } from '../../src/engines/web/partial-pick.js';
import { jsdom } from '../../src/engines/lazy-modules.js';
import { failureOf } from '../helpers/failures.js';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/web/${name}`, import.meta.url));

function page(name: string, url: string, opts: Partial<PageBytes> = {}): PageBytes {
  return {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: fixture(name),
    ...opts,
  };
}

describe('WEB_SCRAPE page reader over fixtures', () => {
  it('reads an article: main content only, absolute images from srcset and lazy attributes, metadata', () => {
    const r = interpretPage(page('article.html', 'https://outdoors.example.com/guides/trail-shoes?ref=home'));
    expect(r.markdown.startsWith('# Choosing a Trail Running Shoe\n')).toBe(true);
    expect(r.markdown).toContain('## Grip and lug depth');
    expect(r.markdown).toContain('- Rocky mountain trails: rock plate, protective toe cap.');
    expect(r.markdown).toContain('[sock guide](https://outdoors.example.com/guides/sock-guide)');
    expect(r.markdown).not.toMatch(/Related|Road shoes|© 2026|Shop/);
    expect(r.markdown).not.toContain('data:image');
    expect(r.text).toContain('Lugs of four to five millimetres bite into mud');
    expect(r.text).not.toMatch(/[#*\]]/);
    expect(r.sources).toEqual([
      {
        position: 1,
        url: 'https://outdoors.example.com/guides/trail-shoes?ref=home',
        label: 'Choosing a Trail Running Shoe',
      },
    ]);

    const extra = r.extra as Record<string, unknown>;
    expect(extra).toMatchObject({
      title: 'Choosing a Trail Running Shoe',
      language: 'en',
      canonicalUrl: 'https://outdoors.example.com/guides/trail-running-shoes',
      finalUrl: 'https://outdoors.example.com/guides/trail-shoes?ref=home',
      byline: 'Dana Whitfield',
      excerpt: 'How cushioning, drop and grip decide which trail shoe suits you.',
      publishedTime: '2026-03-14T08:30:00Z',
    });
    expect(extra.images).toEqual([
      {
        url: 'https://outdoors.example.com/media/lead-trail-shoes.jpg',
        alt: '',
        width: 1200,
        height: 630,
        source: 'og',
      },
      {
        url: 'https://outdoors.example.com/media/outsole-1600.jpg',
        alt: 'Outsole lugs compared',
        width: 1600,
        height: 1067,
        source: 'article',
      },
      {
        url: 'https://outdoors.example.com/guides/images/rock-plate.png',
        alt: 'A rock plate cut in half',
        source: 'article',
      },
      { url: 'https://cdn.example.com/fit-1600.webp', alt: 'Checking the fit at the toe box', source: 'article' },
    ]);
    expect(r.raw).toMatchObject({ tier: 'readability', status: 200, charset: 'utf-8' });
  });

  it('resolves relative images and links against <base href>, not the page URL', () => {
    const r = interpretPage(page('base-href.html', 'https://www.example.org/help/widget'));
    const images = (r.extra as { images: Array<{ url: string }> }).images.map((i) => i.url);
    expect(images).toEqual([
      'https://cdn.example.org/docs/v2/diagrams/overview.svg.png',
      'https://cdn.example.org/shared/logo-large.png',
    ]);
    expect(r.markdown).toContain('[the settings reference](https://cdn.example.org/docs/v2/reference/settings.html)');
    expect(r.sources[0]?.url).toBe('https://www.example.org/help/widget');
    expect(r.raw).toMatchObject({ baseUrl: 'https://cdn.example.org/docs/v2/' });
    expect((r.extra as { language: string }).language).toBe('en-GB');
  });

  it('decodes an EUC-KR page (CP949 syllables included) from its meta charset', () => {
    const body = fixture('korean-euc-kr.html');
    expect(body.includes(Buffer.from('겨울', 'utf8'))).toBe(false);
    const r = interpretPage(
      page('korean-euc-kr.html', 'http://news.example.co.kr/article/view.php?id=1', {
        headers: { 'content-type': 'text/html' },
      }),
    );
    expect(r.text).toContain('겨울 산행은 짧은 해와 낮은 기온 때문에');
    expect(r.text).toContain('똠방각하');
    expect(r.markdown).toContain('![아이젠을 착용한 등산화](http://news.example.co.kr/photo/2026/01/crampons.jpg)');
    expect(r.extra).toMatchObject({ language: 'ko', title: '겨울철 등산 안전 수칙 - 예제 뉴스' });
    expect(r.raw).toMatchObject({ charset: 'euc-kr' });
  });

  it('falls back to <main> when Readability only sees the modal over an aria-hidden page', () => {
    const r = interpretPage(page('readability-hostile.html', 'https://gazette.example.com/local/cycle-lanes'));
    expect(r.raw).toMatchObject({ tier: 'fallback:main' });
    expect(r.text).toContain('eleven kilometres of protected cycle lanes');
    expect(r.text).toContain('most serious injuries to cyclists');
    expect(r.markdown).not.toMatch(/Riverside Gazette|Most read|Never miss a story/);
    expect(r.markdown.startsWith('# City Council Approves New Cycle Lanes')).toBe(true);
  });

  it('converts tables to GFM tables with a header row, one line per row', () => {
    const r = interpretPage(page('table-heavy.html', 'https://energy.example.co.uk/tariffs'));
    expect(r.markdown).toContain(
      [
        '| Supplier | Unit rate (p/kWh) | Standing charge (p/day) | Yearly cost |',
        '| --- | --- | --- | --- |',
        '| Northwind Energy | 24.50 | 53.35 | £954 |',
        '| Contoso Power | 23.90 | 60.10 (rising in April) | £960 |',
        '| Fabrikam \\| Green | 26.10 | 48.00 | £984 |',
      ].join('\n'),
    );
    // The second table has no <th>: its first row becomes the header.
    expect(r.markdown).toContain(
      '| Offer | Term | Exit fee |\n| --- | --- | --- |\n| Northwind Fix 12 | 12 months | £75 |',
    );
    expect(r.markdown).not.toContain('<table');
    expect(r.text).toContain('Contoso Power\t23.90\t60.10 (rising in April)\t£960');
  });

  it('classifies a Cloudflare challenge as UPSTREAM_BLOCKED, with or without the cf-mitigated header', () => {
    const withHeader = failureOf(() =>
      interpretPage(
        page('cloudflare-challenge.html', 'https://www.example-shop.com/p/1', {
          status: 403,
          headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-mitigated': 'challenge' },
        }),
      ),
    );
    expect(withHeader.kind).toBe('UPSTREAM_BLOCKED');
    const fromBody = failureOf(() =>
      interpretPage(
        page('cloudflare-challenge.html', 'https://www.example-shop.com/p/1', {
          status: 503,
          headers: { 'content-type': 'text/html', server: 'cloudflare' },
        }),
      ),
    );
    expect(fromBody.kind).toBe('UPSTREAM_BLOCKED');
    expect(fromBody.message).toContain('Just a moment');
  });

  it('treats an origin error behind Cloudflare as an upstream error, not a challenge', () => {
    const maintenance = Buffer.from(
      '<html><head><title>Down for maintenance</title><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js">' +
        '</script></head><body><h1>We will be back soon</h1></body></html>',
    );
    const f = failureOf(() =>
      interpretPage(
        page('article.html', 'https://shop.example.com/', {
          status: 503,
          headers: { 'content-type': 'text/html', server: 'cloudflare', 'cf-ray': '1-ICN' },
          body: maintenance,
        }),
      ),
    );
    expect(f.kind).toBe('UPSTREAM_ERROR');
  });

  it('does not treat a page that embeds reCAPTCHA and Cloudflare scripts in a form as blocked', () => {
    const r = interpretPage(
      page('recaptcha-form.html', 'https://software.example.com/contact', {
        headers: { 'content-type': 'text/html', server: 'cloudflare', 'cf-ray': '1-ICN' },
      }),
    );
    expect(r.text).toContain('Our support team answers every request within one business day.');
    expect(r.markdown).not.toMatch(/Send|textarea|g-recaptcha/);
  });

  it('reports a JavaScript-only app shell as CONTENT_UNREADABLE', () => {
    const f = failureOf(() => interpretPage(page('app-shell.html', 'https://app.example.com/dashboard')));
    expect(f.kind).toBe('CONTENT_UNREADABLE');
    expect(f.message).toMatch(/app shell/);
  });

  it('maps HTTP failures and unsupported types to their kinds', () => {
    const html = { 'content-type': 'text/html' };
    const kind = (opts: Partial<PageBytes>) =>
      failureOf(() => interpretPage(page('article.html', 'https://x.example.com/a', opts))).kind;
    expect(kind({ status: 404, headers: html })).toBe('NO_ANSWER');
    // A bare 403 refuses the page, not the exit address.
    const forbidden = failureOf(() =>
      interpretPage(page('article.html', 'https://x.example.com/a', { status: 403, headers: html })),
    );
    expect(forbidden.kind).toBe('PAGE_UNAVAILABLE');
    expect(forbidden.clientMessage).toMatch(/HTTP 403 Forbidden/);
    expect(kind({ status: 410, headers: html })).toBe('NO_ANSWER');
    expect(kind({ status: 502, headers: html })).toBe('UPSTREAM_ERROR');
    expect(kind({ status: 429, headers: { ...html, 'retry-after': '30' } })).toBe('RATE_LIMITED');
    expect(kind({ headers: { 'content-type': 'application/pdf' }, body: Buffer.from('%PDF-1.7\n') })).toBe(
      'CONTENT_UNREADABLE',
    );
    const pdf = failureOf(() =>
      interpretPage(
        page('article.html', 'https://x.example.com/a.pdf', { headers: { 'content-type': 'application/pdf' } }),
      ),
    );
    expect(pdf.message).toContain('application/pdf');
    expect(kind({ finalUrl: 'https://x.example.com/account/login?next=%2Fa', headers: html })).toBe('CONSENT_REQUIRED');
    expect(kind({ status: 200, headers: html, body: Buffer.from('<html><body>   </body></html>') })).toBe(
      'CONTENT_UNREADABLE',
    );
  });

  it('accepts application/xhtml+xml and HTML without a content type', () => {
    expect(
      interpretPage(
        page('base-href.html', 'https://x.example.com/a', { headers: { 'content-type': 'application/xhtml+xml' } }),
      ).text,
    ).toContain('widget server');
    expect(interpretPage(page('base-href.html', 'https://x.example.com/a', { headers: {} })).text).toContain(
      'widget server',
    );
  });

  it('parses srcset candidates whose URLs contain commas and picks by descriptor', () => {
    expect(
      parseSrcset('https://img.example.com/c_fill,w_400/a.jpg 400w, https://img.example.com/c_fill,w_800/a.jpg 800w'),
    ).toEqual([
      { url: 'https://img.example.com/c_fill,w_400/a.jpg', w: 400 },
      { url: 'https://img.example.com/c_fill,w_800/a.jpg', w: 800 },
    ]);
    expect(parseSrcset('a.jpg, b.jpg 2x')).toEqual([{ url: 'a.jpg' }, { url: 'b.jpg', x: 2 }]);
  });

  it('undoes gzip, deflate and br content encodings', () => {
    const html = fixture('article.html');
    expect(decompress(zlib.gzipSync(html), 'gzip').equals(html)).toBe(true);
    expect(decompress(zlib.deflateSync(html), 'deflate').equals(html)).toBe(true);
    expect(decompress(zlib.deflateRawSync(html), 'deflate').equals(html)).toBe(true);
    expect(decompress(zlib.brotliCompressSync(html), 'br').equals(html)).toBe(true);
    expect(failureOf(() => decompress(Buffer.from('not gzip'), 'gzip')).kind).toBe('UPSTREAM_ERROR');
  });
});

describe('WEB_SCRAPE extraction on markup seen in real pages', () => {
  const html = (body: string, head = '') =>
    `<!doctype html><html lang="en"><head><title>Release notes</title>${head}</head>` +
    `<body><article><h1>Release notes</h1>${body}</article></body></html>`;
  const prose =
    '<p>This release changes how the service reads pages, and every change below ' +
    'was checked against saved pages from public test suites before it shipped.</p>';
  const read = (doc: string) =>
    interpretPage({
      requestedUrl: 'https://docs.example.com/r',
      finalUrl: 'https://docs.example.com/r',
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: Buffer.from(doc),
    });

  it('numbers ordered list items (Turndown runs on domino, whose children are not iterable)', () => {
    const r = read(
      html(
        `${prose}<ol><li>Fetch the page with browser headers.</li><li>Find the main content.</li>` +
          `<li>Convert it to Markdown.</li></ol>${prose}<ol start="4">` +
          `<li>Collect the images.</li><li>Return the result.</li></ol>`,
      ),
    );
    expect(r.markdown).toContain(
      '1. Fetch the page with browser headers.\n2. Find the main content.\n3. Convert it to Markdown.',
    );
    expect(r.markdown).toContain('4. Collect the images.\n5. Return the result.');
    expect(r.text).toContain('Find the main content.');
  });

  it('drops the page furniture Readability keeps inside an article, and keeps its images', () => {
    const para = (s: string) =>
      `<p>${s} The council will publish the full plan, ` +
      `with maps of every route and a timetable for the works, next month.</p>`;
    const r = read(
      `<!doctype html><html><head><title>Council approves cycle lanes | Riverside Gazette</title></head><body>
      <article><h1>Council approves cycle lanes</h1>
      <div class="byline">By Dana Reyes</div><div>Updated 10:01 pm, Tuesday, November 19, 2019</div>
      <ul class="menu-strip"><li><a href="/news">News</a></li><li>` +
        `<a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li></ul>
      ${para('The city council approved eleven kilometres of protected cycle lanes on Tuesday.')}
      <figure><img src="/img/lane.jpg" alt="A protected lane">` +
        `<figcaption>A protected lane on Mill Road. (Photo: Riverside Gazette)</figcaption></figure>
      <div class="ad-slot"><p>Advertisement</p></div>
      ${para('Cyclists had asked for separated lanes since a series of crashes on the ring road in 2022.')}
      <p><a href="/news/ring-road">READ MORE: Ring road crashes prompt safety review</a></p>
      ${para('Shop owners on Mill Road worried about deliveries; the plan keeps loading bays at both ends.')}
      <div class="share-tools"><a href="https://facebook.com/sharer">Facebook</a> <a href="https://twitter.com/share">Twitter</a></div>
      <h3>Related stories</h3><ul><li><a href="/a">Bridge repairs start in May</a>` +
        `</li><li><a href="/b">New bus routes for the east side</a></li></ul>
      <p>This website uses cookies to improve your experience. We'll assume you're ok with this.</p>
      <p>© 2024 Riverside Gazette. All rights reserved.</p></article>
      <article><h2><a href="/c">Market hall reopens</a></h2><p>The market hall reopens on Saturday.</p></article>
      </body></html>`,
    );
    expect(r.text).toContain('approved eleven kilometres');
    expect(r.text).toContain('keeps loading bays at both ends');
    for (const furniture of [
      'Dana Reyes',
      'Updated',
      'Weather',
      'Mill Road. (Photo',
      'Advertisement',
      'Facebook',
      'Related',
      'Bridge repairs',
      'cookies',
      'Market hall',
    ]) {
      expect(r.text).not.toContain(furniture);
    }
    // A linked "read more" line and a copyright line stay in an article Readability kept them in: on real pages
    // those rules removed annotated article text too often (docs/engines.md#cleanup-rules).
    expect(r.text).toContain('READ MORE: Ring road crashes prompt safety review');
    expect(r.text).toContain('© 2024 Riverside Gazette. All rights reserved.');
    expect(r.raw).toMatchObject({ tier: 'readability' });
    const removed = (r.raw as { removed: Array<{ rule: string; text: string }> }).removed;
    expect(removed).toContainEqual({ rule: 'ui-label', tag: 'P', text: 'Advertisement' });
    expect(removed.map((b) => b.rule)).not.toContain('link-block');
    expect(r.markdown).toContain('![A protected lane](https://docs.example.com/img/lane.jpg)');
  });

  it('keeps a written-out request whose query string holds dates: a URL is no dateline', () => {
    const r = read(
      html(
        `${prose}<p>GET /reports?from=2025-01-01&amp;to=2025-12-31&amp;limit=500000</p>${prose}` +
          '<p>Published 2025-03-04</p>',
      ),
    );
    expect(r.text).toContain('GET /reports?from=2025-01-01&to=2025-12-31&limit=500000');
    // The rule still runs: a dateline with a numeric date beside it goes.
    expect(r.text).not.toContain('Published 2025-03-04');
  });

  it('keeps the equations of a page, MathML and MathJax output alike', () => {
    const para = (x: string) => `<p>${x} The derivation follows step by step for a reader who checks each line.</p>`;
    const mathjax =
      '<span class="MathJax_Preview" style="display: none;"></span><span class="MathJax" role="presentation">' +
      '<nobr aria-hidden="true"><span class="math"><span class="mi">x</span></span></nobr>' +
      '<span class="MJX_Assistive_MathML" role="presentation"><math><mi>x</mi><mo>=</mo><mfrac><mrow><mo>-</mo>' +
      '<mi>b</mi></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math></span></span>' +
      '<script type="math/tex">x=\\frac{-b}{2a}</script>';
    const r = read(
      `<!doctype html><html><head><title>Two identities</title></head><body><article><h1>Two identities</h1>
      ${para('We start from the exponential.')}
      <p>The identity <math><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup><mo>+</mo><mn>1</mn>` +
        `<mo>=</mo><mn>0</mn></math> links five constants.</p>
      <div class="MathJax_Display">${mathjax}</div>
      ${para('Then we expand the series.')}${para('Finally we compare the terms.')}</article></body></html>`,
    );
    expect(r.text).toContain('The identity eiπ+1=0 links five constants.');
    expect(r.text).toContain('x=-b2a');
    expect((r.raw as { removed: unknown[] }).removed).toEqual([]);
  });

  // The date rule's patterns once used `\b`, which JavaScript bounds at ASCII letters only: in one long word of
  // mixed scripts every character was a boundary and a 40 KB line took 18 s. A timeout is this test's failure.
  it('reads a page whose line is one 40,000-letter word of mixed scripts', { timeout: 10_000 }, () => {
    const word = 'aя'.repeat(20_000);
    const r = read(
      `<!doctype html><html><head><title>Long word</title></head><body><article><h1>Long word</h1>
      <p>Published ${word}</p><p>${'A sentence of the article that carries its weight. '.repeat(12)}</p>
      </article></body></html>`,
    );
    expect(r.text).toContain(word);
  });

  it('drops link blocks, copyright lines and bare addresses only on the page scope (the fallback path)', () => {
    const prose = (x: string) => `<p>${x} The library keeps the exhibit open until the end of January.</p>`;
    const markup =
      prose('Children at the branch library read Kwanzaa stories and made crafts on Saturday.') +
      prose('A related exhibit on the African diaspora is on display in the reading room.') +
      '<ul><li><a href="/a">Library hours</a></li><li><a href="/b">Events calendar</a></li>' +
      '<li><a href="/c">Join the library</a></li></ul>' +
      '<p>www.example-library.org</p><p>© 2015 Example Media Group. All rights reserved.</p>';
    const pruned = (scope: 'article' | 'page') => {
      const { window } = new JSDOM(`<div id="c">${markup}</div>`);
      const root = window.document.getElementById('c') as Element;
      const rules: string[] = [];
      pruneBoilerplate(root, scope, { removed: (rule) => rules.push(rule) });
      return { text: root.textContent ?? '', rules };
    };
    const page = pruned('page');
    expect(page.rules.sort()).toEqual(['bare-address', 'copyright', 'link-block']);
    for (const furniture of ['Events calendar', 'www.example-library.org', '©'])
      expect(page.text).not.toContain(furniture);
    expect(page.text).toContain('read Kwanzaa stories');
    const article = pruned('article');
    expect(article.rules).toEqual([]);
    expect(article.text).toContain('Events calendar');
  });

  it('keeps an article that is mostly a list of links', () => {
    const links = Array.from(
      { length: 8 },
      (_, i) =>
        `<li><a href="/guide/${i}">Chapter ${i + 1}: ` +
        `how the reader finds the main content of a page and converts it</a></li>`,
    ).join('');
    const r = read(html(`<p>The guide has eight chapters.</p><ul>${links}</ul>`));
    expect(r.text).toContain('Chapter 1: how the reader finds');
    expect(r.text).toContain('Chapter 8: how the reader finds');
  });

  describe('a partial pick (docs/engines.md#partial-pick)', () => {
    const para = (topic: string, i: number) =>
      `<p>The ${topic} part explains step ${i} in plain words, with enough detail that a reader can follow it ` +
      `without the pictures, and a second sentence about ${topic} so that the paragraph reads as prose.</p>`;
    const intro = [1, 2, 3, 4].map((i) => para('introduction', i)).join('');
    // A buying guide of the development slices: an introduction, then each reviewed product in a "widget" block,
    // which Readability's class weights mark as negative and its conditional cleaning removes.
    const entry = (topic: string) =>
      `<div class="c-product-widget"><div class="c-product-widget__content"><h3>${topic}</h3>` +
      `${[1, 2, 3].map((i) => para(topic, i)).join('')}</div></div>`;
    const guide = () =>
      `<!doctype html><html lang="en"><head><title>A guide</title></head><body><nav><a href="/">Home</a></nav>` +
      `<main><h1>A guide</h1><article><div class="feature__content-block">${intro}` +
      `${['Soil', 'Water', 'Light', 'Pruning', 'Pests'].map(entry).join('')}</div></article></main></body></html>`;

    it('reads the whole article when Readability keeps the introduction only', () => {
      const r = read(guide());
      expect(r.raw).toMatchObject({ tier: 'readability:widened' });
      expect(r.text).toContain('The Pests part explains step 3');
      expect(r.text).toContain('The introduction part explains step 1');
      // Readability's own pick, before any step of ours, is recorded as it was.
      expect((r.raw as { readabilityText: string }).readabilityText).not.toContain('Pests');
    });

    it("counts the page's prose outside chrome, comment threads and sidebars", () => {
      const { JSDOM } = jsdom();
      const doc = new JSDOM(
        `<body><nav><p>${'Menu words that are not prose at all. '.repeat(3)}</p></nav>
        <div class="site-content"><p>${'Article prose, counted. '.repeat(3)}</p>
        <ul><li>${'A list item of the article, counted too. '.repeat(2)}<ul><li>nested, once</li></ul></li></ul>
        <li><a href="/x">${'A link is no prose at all, whatever its length. '.repeat(2)}</a></li></div>
        <ol class="comment-list"><li>${'A reader comment, left out of the count. '.repeat(4)}</li></ol></body>`,
      ).window.document;
      const prose = readableProse(doc.body);
      expect(prose.blocks).toHaveLength(2);
      expect(prose.blocks[1]).toContain('nested, once');
    });

    it('keeps the first pick when the wider read would swap it for another block', () => {
      const page = { chars: 10_000, blocks: [] };
      const first = { chars: 1_000, blocks: ['a', 'b', 'c', 'd', 'e'] };
      expect(isPartialPick(first, page)).toBe(true);
      expect(isPartialPick({ chars: 6_000, blocks: [] }, page)).toBe(false);
      expect(isPartialPick({ chars: 400, blocks: [] }, { chars: 1_200, blocks: [] })).toBe(false);
      expect(widens({ chars: 8_000, blocks: ['a', 'b', 'c', 'd', 'x', 'y'] }, first)).toBe(true);
      expect(widens({ chars: 8_000, blocks: ['a', 'b', 'c', 'x', 'y'] }, first)).toBe(false);
      expect(widens({ chars: 900, blocks: ['a', 'b', 'c', 'd', 'e'] }, first)).toBe(false);
    });
  });

  it("keeps beside a partial pick only the blocks that continue the article (the region's siblings)", () => {
    const { JSDOM } = jsdom();
    const prose =
      '<p>The next section of the article goes on in plain words, and links to <a href="/a">one page</a>.</p>';
    const teaser = (i: number) =>
      `<div><h3><a href="/s/${i}">Another story, number ${i}</a></h3><p>Its lead.</p></div>`;
    const doc = new JSDOM(
      `<body><div id="path" class="sect1 wide"></div><div id="next" class="sect1 wide part-2">${prose}</div>
      <h2 id="heading">Part two</h2><div id="image" class="sect1"><img src="/a.png"></div>
      <div id="other" class="teasers">${prose}</div>
      <div id="cards" class="sect1 wide">${[1, 2, 3].map(teaser).join('')}</div>
      <div id="links" class="sect1 wide"><p><a href="/a">A list of links and nothing else at all</a></p></div>
      <section id="tag" class="sect1 wide">${prose}</section></body>`,
    ).window.document;
    const path = doc.getElementById('path') as Element;
    const keeps = (id: string) => continuesArticle(doc.getElementById(id) as Element, path);
    // Same tag, half the class words in common, prose: the next section. A heading or an image block: kept.
    expect(['next', 'heading', 'image'].map(keeps)).toEqual([true, true, true]);
    // Another kind of block, a list of cards whose headings are links, a list of links, another tag: not kept.
    expect(['other', 'cards', 'links', 'tag'].map(keeps)).toEqual([false, false, false, false]);
  });

  it('finds the block holding the most paragraph text, not comments or link lists', () => {
    const { JSDOM } = jsdom();
    const link = 'A long link that is only a link and never a paragraph of the story';
    const story = 'The story has one paragraph of plain prose, long enough to count. '.repeat(3);
    const comment = 'A reader comment that runs on and on, longer than the story. '.repeat(6);
    const doc = new JSDOM(
      `<body><div id="menu"><p><a href="/a">${link}</a></p></div>
      <div id="story"><p>${story}</p><p>And a second paragraph.  ${'More prose. '.repeat(5)}</p></div>
      <div class="comments"><p>${comment}</p></div></body>`,
    ).window.document;
    expect(densestParagraphBlock(doc)?.id).toBe('story');
  });

  it('does not repeat the headline when the page title adds the site name', () => {
    const r = read(
      `<!doctype html><html><head><title>Quad squad born in Utah | Watch News Videos Online</title>` +
        `<meta property="og:title" content="Quad squad born in Utah | Watch News Videos Online"></head><body><main>
      <h1>Quad squad born in Utah</h1><p>After a six-month ride, ` +
        `the couple celebrated the arrival of their quadruplets on Sunday.</p></main></body></html>`,
    );
    expect(r.markdown.match(/Quad squad born in Utah/g)).toHaveLength(1);
    expect(r.text.match(/Quad squad born in Utah/g)).toHaveLength(1);
  });

  it('reads a page whose style sheet makes the CSS parser throw (style sheets are not parsed)', () => {
    const r = read(html(`${prose}${prose}`, '<style>.spinner:after{border:inherit;border-color:transparent}</style>'));
    expect(r.text).toContain('every change below was checked');
  });
});

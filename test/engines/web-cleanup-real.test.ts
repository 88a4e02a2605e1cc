/**
 * The page reader's cleanup rules, the declared body and the partial pick's region on real saved pages: each rule is
 * shown removing page furniture on a page where it should, and leaving article text on a page where it must
 * (docs/engines.md#cleanup-rules, #partial-pick). The pages are test/fixtures/web/real (PROVENANCE.md there) and
 * pages of the web corpus (test/fixtures/real/web).
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { declaredBodyElement, declaredBodyIsFuller } from '../../src/engines/web/declared-body.js';
import { interpretPage } from '../../src/engines/web/page-reader.js';
import { jsdom } from '../../src/engines/lazy-modules.js';

interface Removed {
  rule: string;
  tag: string;
  text: string;
}

/** Reads a gzipped saved page through the reader as the service would, from the URL it was saved from. */
function read(file: URL, url: string) {
  const r = interpretPage({
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: zlib.gunzipSync(fs.readFileSync(file)),
  });
  const raw = r.raw as { tier: string; removed: Removed[]; readabilityText: string | null };
  return { text: r.text, tier: raw.tier, removed: raw.removed, readabilityText: raw.readabilityText ?? '' };
}
const own = (name: string) => new URL(`../fixtures/web/real/${name}`, import.meta.url);
const corpus = (name: string) => new URL(`../fixtures/real/web/${name}`, import.meta.url);
const articles2026 = (name: string) => new URL(`../fixtures/real/web-articles-2026/${name}`, import.meta.url);

describe('dateline: a sentence of any script is no dateline', () => {
  it('keeps the Japanese paragraphs of a Tokyo Shimbun article that hold dates and end in 。', () => {
    const r = read(own('tokyo-shimbun-2025.html.gz'), 'https://www.tokyo-np.co.jp/article/379018');
    expect(r.tier).toBe('readability');
    // Paragraphs under 200 characters with a CJK date ("2018年7月", "2024年3月"): sentences, which a dateline is not.
    expect(r.text).toContain('逮捕容疑では、2018年7月～2020年2月、同大の新校舎');
    expect(r.text).toContain('女子医大を巡っては、2023年3月に「不透明な資金の流れがある」');
    expect(r.removed.filter((b) => b.rule === 'dateline').map((b) => b.text)).not.toContainEqual(
      expect.stringContaining('。'),
    );
  });

  it('still removes a Japanese dateline (a date, a time and a place, no sentence)', () => {
    const r = read(corpus('newspaper4k/n4k-japanese-article2.html.gz'), 'http://www.afpbb.com/articles/-/3178894');
    expect(r.removed).toContainEqual(
      expect.objectContaining({ rule: 'dateline', text: expect.stringContaining('2018年6月18日 10:01') }),
    );
    expect(r.text).not.toContain('発信地');
  });
});

describe("gallery-caption: a gallery loses its captions and controls, not its slides' prose", () => {
  it("removes an AP photo gallery's credits, counters and controls (CT Post)", () => {
    const r = read(
      corpus('zyte/zyte-05844573ca7e.html.gz'),
      'https://www.ctpost.com/news/us/article/New-SUVs-and-electric-vehicles-highlight-L-A-14848164.php',
    );
    expect(r.removed).toContainEqual(
      expect.objectContaining({ rule: 'gallery-caption', text: expect.stringContaining('Image 1 of') }),
    );
    expect(r.text).not.toContain('Photo: Damian Dovarganes, AP');
  });

  it("keeps the lead sentence of a hero slider's slide (AMA), which is the article's opening", () => {
    const r = read(articles2026('wceb-5f3977bfd2e0.html.gz'), 'https://www.ama.org/what-is-digital-marketing/');
    expect(r.text).toContain(
      'With the explosion of digital technology, including the widespread use of computers and smartphones',
    );
    expect(r.removed.map((b) => b.text).join('\n')).not.toContain('With the explosion of digital technology');
  });
});

describe('furniture-class: an overlay is not the article', () => {
  it('removes the search modal Readability kept inside an article (UVA SCPS)', () => {
    const r = read(
      articles2026('wceb-aed02ed8116f.html.gz'),
      'https://www.scps.virginia.edu/whats-difference-between-certificate-and-certification',
    );
    expect(r.removed).toContainEqual(
      expect.objectContaining({ rule: 'furniture-class', text: expect.stringContaining('Start Exploring') }),
    );
    expect(r.text).not.toContain("Tell us more about what you're looking for");
  });

  it('keeps a link that opens a popup: a link is not an overlay (LakeCrest Dental)', () => {
    const r = read(
      articles2026('wceb-7bfd095b3be7.html.gz'),
      'https://lakecrestdental.com/blog/top-dental-resolutions-for-2025/',
    );
    expect(r.text).toMatch(/contact us\s+online to schedule/);
    expect(r.removed.map((b) => b.text)).not.toContain('online');
  });
});

describe('sanitiser: a video is not text', () => {
  it("drops the fallback text inside a Metro article's video player, and keeps the article", () => {
    const r = read(
      own('metro-uk-2024.html.gz'),
      'https://metro.co.uk/2024/11/18/sweden-tells-5-000-000-households-how-survive-wwiii-new-war-pamphlet-22018356/',
    );
    expect(r.tier).toBe('readability');
    expect(r.removed).toContainEqual(
      expect.objectContaining({
        rule: 'active-element',
        tag: 'VIDEO',
        text: expect.stringContaining('To view this video'),
      }),
    );
    expect(r.text).not.toContain('To view this video please enable JavaScript');
    expect(r.text).toContain('Sweden and Finland have told millions of citizens how to be prepared');
  });
});

describe('declared body: the article the page declares in its structured data', () => {
  it('reads the declared body of a page whose markup shows only the first paragraph (ABC, a paywalled report)', () => {
    const r = read(
      own('abc-es-2026.html.gz'),
      'https://www.abc.es/espana/andalucia/cordoba/cordoba-patrimonio-logra-punto-vital-ante-noia-20260425145127-nts.html',
    );
    expect(r.tier).toBe('declared-body');
    // Paragraphs that are in the page's JSON-LD articleBody only, not in its markup.
    expect(r.text).toContain('El encuentro en Vista Alegre comenzó con toda una declaración de intenciones');
    expect(r.text).toContain('Tras seis derrotas consecutivas, el Córdoba Patrimonio de la Humanidad volvió a puntuar');
  });

  it('keeps the markup article when the declared body is not much longer (AppleInsider review)', () => {
    const file = corpus('zyte/zyte-65bf3048b500.html.gz');
    // The page declares an articleBody, shorter than twice the article its markup shows.
    expect(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')).toContain('"articleBody"');
    const r = read(
      file,
      'https://appleinsider.com/articles/19/11/18/16-inch-macbook-pro-review-the-keyboard-is-probably-enough-to-convince-those-waiting',
    );
    expect(r.tier).toBe('readability');
  });

  it('takes the declared body only when it is the same article and at least twice as long', () => {
    const shown = 'The council approved eleven kilometres of protected cycle lanes on Tuesday.';
    const rest = ' Cyclists had asked for separated lanes since a series of crashes on the ring road.'.repeat(3);
    expect(declaredBodyIsFuller(shown, shown + rest)).toBe(true);
    expect(declaredBodyIsFuller(shown, shown)).toBe(false);
    // Another text, however long, is not the article the page shows.
    const other = 'Subscribe to our newsletter for the best deals on travel and gear every week.'.repeat(5);
    expect(declaredBodyIsFuller(shown, other)).toBe(false);
  });

  it('builds paragraphs from a plain declared body without reading markup into it', () => {
    const { JSDOM } = jsdom();
    const doc = new JSDOM('').window.document;
    const el = declaredBodyElement(doc, 'First line &amp; more.\nA line with <img src=x onerror=alert(1)> text.');
    expect([...el.children].map((c) => c.tagName)).toEqual(['P', 'P']);
    expect(el.children[0]?.textContent).toBe('First line & more.');
    expect(el.querySelector('img')).toBeNull();
    expect(el.children[1]?.textContent).toContain('<img src=x');
  });
});

describe("partial pick: the article's other sections beside Readability's pick", () => {
  // Pages of the development slices where Readability keeps one section of an article split across sibling blocks,
  // and its own retries keep the same part (docs/engines.md#partial-pick).
  it('reads every section of a post whose sections are sibling blocks (AsciiDoc, wceb places 301-414)', () => {
    const r = read(own('antoyo-rustc-gcc-39.html.gz'), 'https://blog.antoyo.xyz/rustc_codegen_gcc-progress-report-39');
    expect(r.tier).toBe('readability:region');
    for (const line of [
      'rustc_codegen_gcc is a GCC ahead-of-time codegen for rustc',
      'Finally, another good way to help is to look at good first issues.',
    ]) {
      expect(r.readabilityText).not.toContain(line);
      expect(r.text).toContain(line);
    }
  });

  // Each page: the tier it is read by, a line of the article Readability's pick leaves out and aeq's read keeps, and
  // boilerplate beside the article that must stay out.
  for (const { page, file, url, tier, kept, left } of [
    {
      page: "every row of a page builder's article (HubSpot, wceb places 1-150)",
      file: 'cbcbank-2025.html.gz',
      url: 'https://www.cbcbank.com/top-nine-financial-tips-for-working-adults',
      tier: 'readability:region',
      kept: 'Your financial moves need to be linked to your goals.',
    },
    {
      page: "a news article's later chunks, not the teaser column beside each (t-online, fundus 151-251)",
      file: 't-online-2026.html.gz',
      url: 'https://www.t-online.de/nachrichten/ausland/id_101072480/russlands-schattenflotte-usa-stoppen-sanktioniertes-geisterschiff.html',
      tier: 'readability:widened:region',
      kept: 'Laut Trackingdaten hat das Schiff nachweislich Venezuela',
      // Each chunk has an <aside> of "most read" teasers beside it.
      left: 'Jetzt kommt die Eiswand',
    },
    {
      page: "the article's paragraphs after a paywall wrapper's split (Rzeczpospolita, fundus 151-251)",
      file: 'rzeczpospolita-2025.html.gz',
      url: 'https://www.rp.pl/polityka/art41756471-niemcy-stale-zamkniecie-granic-jedynie-kwestia-czasu',
      tier: 'readability:widened:region',
      kept: 'Trudno sobie dzisiaj wyobrazić, że SPD',
    },
  ] as { page: string; file: string; url: string; tier: string; kept: string; left?: string }[])
    it(`reads ${page}`, () => {
      const r = read(own(file), url);
      expect(r.tier).toBe(tier);
      expect(r.readabilityText).not.toContain(kept);
      expect(r.text).toContain(kept);
      if (left) expect(r.text).not.toContain(left);
    });

  it('takes in no teaser list, sidebar column or breaking-news box beside a pick that reads partial', () => {
    // A utility-class sidebar column (newsletter box, "Popular posts") shares a few class words with the main column.
    const travel = read(own('travelnoire-2025.html.gz'), 'https://travelnoire.com/top-car-rental-company-us-2025');
    expect(travel.tier).toBe('readability');
    expect(travel.text).not.toMatch(/Popular posts|Subscribe to Travel Noire/);
    // Section teasers with a lead each (CBS News), a "Breaking News" list with leads (India Post).
    const cbs = read(
      corpus('zyte/zyte-2c46804d9db4.html.gz'),
      'https://www.cbsnews.com/news/michael-webb-fort-worth-dramatic-video-shows-rescue-of-8-year-old-kidnapping-victim/',
    );
    expect(cbs.tier).toBe('readability');
    expect(cbs.text).not.toContain('Why farmers may want to paint their cows with zebra stripes');
    const india = read(
      corpus('zyte/zyte-5f9c5ed5d64d.html.gz'),
      'https://www.indiapost.com/with-shattered-dreams-deportees-return-home-from-us/',
    );
    expect(india.tier).toBe('readability');
    expect(india.text).not.toContain('USCIRF expresses concern over NRC');
  });
});

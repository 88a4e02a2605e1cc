import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAiModePage } from '../../src/engines/search-a/aimode-parser.js';
import type { HtmlPage } from '../../src/engines/common/html-page.js';
import { parseResultsPage } from '../../src/engines/search-a/results-page.js';
import { failureKind } from '../helpers/failures.js';

const SEARCH_URL = 'https://www.google.com/search?q=test&hl=en&gl=us&pws=0';

function fixture(name: string, over: Partial<HtmlPage> = {}): HtmlPage {
  const html = fs.readFileSync(new URL(`../fixtures/search-a/${name}`, import.meta.url), 'utf8');
  return { html, status: 200, finalUrl: SEARCH_URL, ...over };
}

const serp = (p: HtmlPage, page = 1) => parseResultsPage(p, { page, readAio: true });

describe('Google results page parser', () => {
  it('reads organic results: h3 links in #search, redirector unwrapped, ads/PAA/internal/duplicates dropped', () => {
    const r = serp(fixture('serp-aio.html'));
    expect(r.organic.map((o) => o.url)).toEqual([
      'https://docs.pydantic.dev/latest/migration/',
      'https://realpython.com/python-pydantic/',
      'https://github.com/pydantic/bump-pydantic',
      'https://medium.com/@dev/pydantic-v2-in-production-4c1a',
      'https://www.reddit.com/r/Python/comments/14abc/pydantic_v2_is_out/',
    ]);
    expect(r.organic.map((o) => o.position)).toEqual([1, 2, 3, 4, 5]);
    expect(r.organic[1]).toEqual({
      position: 2,
      url: 'https://realpython.com/python-pydantic/',
      title: 'Pydantic: Simplifying Data Validation in Python',
      snippet:
        "Mar 4, 2026 — In this tutorial, you'll learn how to model " +
        'your data with Pydantic v2, including the new validators.',
      site: 'Real Python',
    });
    expect(r.organic[3]?.snippet).toMatch(/^We migrated 40 services/);
    expect(r.diagnostics.tiers).toMatchObject({
      root: '#search',
      link: 'a:has(h3)',
      aio: 'YzCcne[data-mcpr]',
      aioProse: 'main-col',
      snippet: { 'div.VwiC3b': 4, 'div.IsZvec': 1 },
    });
    expect(r.diagnostics.walls).toEqual([]);
    expect(r.diagnostics.skipped).toEqual({ internal: 2, duplicate: 1 });
  });

  it('reads the AI Overview: main-column prose, citations in first-appearance order, highlights stripped', () => {
    const aio = serp(fixture('serp-aio.html')).aioverview;
    expect(aio).not.toBeNull();
    expect(aio?.markdown).toBe(
      [
        'Pydantic v2 was released in June 2023 and rewrote the core validation logic in Rust as [pydantic-core](https://github.com/pydantic/pydantic-core).',
        '',
        'Migrating mostly means renaming methods and validators:',
        '',
        '- **Speed:** validation is 5–50× faster than in v1.',
        '- `.dict()` becomes `.model_dump()` and `@validator` becomes `@field_validator`.',
        '- The `bump-pydantic` codemod automates most renames.',
      ].join('\n'),
    );
    expect(aio?.text).toContain('rewrote the core validation logic in Rust as pydantic-core.');
    expect(aio?.text).toContain('- .dict() becomes .model_dump() and @validator becomes @field_validator.');
    expect(aio?.text).not.toMatch(/AI Overview|Show more|may include mistakes|Learn more|not available/);
    expect(aio?.text).not.toMatch(/generate an AI overview|backwards compatible|\*\*|`/);
    expect(aio?.sources).toEqual([
      {
        position: 1,
        url: 'https://github.com/pydantic/pydantic-core',
        label: 'pydantic/pydantic-core: Core validation logic',
      },
      { position: 2, url: 'https://docs.pydantic.dev/latest/migration/', label: 'Migration Guide - Pydantic' },
      { position: 3, url: 'https://example.org/guide?id=7', label: 'Pydantic v2 upgrade guide' },
    ]);
  });

  it('gives aioverview null on a page without one, keeping snippets per result (never a neighbour’s)', () => {
    const r = serp(fixture('serp-no-aio.html'));
    expect(r.aioverview).toBeNull();
    expect(r.diagnostics.aioStatus).toBe('absent');
    expect(r.organic).toHaveLength(5);
    expect(r.organic[2]).toMatchObject({ site: 'reddit.com', snippet: expect.stringMatching(/^Altra Lone Peak/) });
    expect(r.organic[3]).toMatchObject({ title: 'Best Hiking Boots of 2026 | Switchback Travel', snippet: '' });
    expect(r.diagnostics.tiers.snippet).toEqual({
      'div.VwiC3b': 1,
      '[data-sncf="1"]': 1,
      'span.aCOpRe': 1,
      none: 1,
      'div.s3v9rd': 1,
    });
  });

  it('numbers organic results globally from the page offset', () => {
    const r = serp(fixture('serp-no-aio.html'), 3);
    expect(r.organic.map((o) => o.position)).toEqual([21, 22, 23, 24, 25]);
  });

  it(
    "keeps results on Google's own pages, the featured snippet first with its title, " +
      'and drops only the search application links (docs/engines.md#google-organic-results)',
    () => {
      const r = serp(fixture('serp-google-property.html'));
      expect(r.organic.map((o) => [o.position, o.url, o.title])).toEqual([
        [
          1,
          'https://support.google.com/maps/answer/6291838?hl=en&co=GENIE.Platform%3DAndroid',
          'Download areas & navigate offline in Google Maps - Android',
        ],
        [2, 'https://www.google.com/maps/about/#!/', 'Google Maps - Explore'],
        [
          3,
          'https://play.google.com/store/apps/details?id=com.google.android.apps.maps&hl=en_US',
          'Google Maps - Apps on Google Play',
        ],
        [
          4,
          'https://developers.google.com/maps/documentation/android-sdk/offline',
          'Offline maps | Maps SDK for Android | Google for Developers',
        ],
        [5, 'https://www.google.com/intl/en/about/products/', "Browse All of Google's Products & Services - Google"],
        [
          6,
          'https://www.reddit.com/r/GoogleMaps/comments/1abc/offline_maps_expire/',
          'Offline maps expire? : r/GoogleMaps',
        ],
      ]);
      expect(r.organic[0]?.site).toBe('Google Help');
      // "Images for …" links to the results page's own image tab: the one h3 link that is navigation.
      expect(r.diagnostics.skipped).toEqual({ internal: 1, duplicate: 0 });
    },
  );

  it("cites Google's help articles in an AI Overview, but not its Learn more, feedback or legal links", () => {
    const aio = serp(fixture('serp-google-property.html')).aioverview;
    expect(aio?.sources.map((s) => [s.url, s.label])).toEqual([
      ['https://support.google.com/maps/answer/6291838?hl=en', 'Download areas & navigate offline in Google Maps'],
      ['https://blog.google/products/maps/offline-maps-updates/', 'Offline maps, now with more places'],
    ]);
    expect(aio?.text).toContain('choose Offline maps, then select the area to download.');
    expect(aio?.markdown).toContain('[Offline maps](https://support.google.com/maps/answer/6291838?hl=en)');
    expect(aio?.text).not.toMatch(/Learn more|Privacy Policy|legal removal/);
  });

  it('falls back to the jsname link tier when titles are not h3', () => {
    const r = serp(fixture('serp-jsname-tier.html'));
    expect(r.diagnostics.tiers).toMatchObject({ root: '#rso', link: 'a[jsname=UWckNb]' });
    expect(r.organic.map((o) => o.title)).toEqual(['Tokio - An asynchronous Rust runtime', 'async_std - Rust']);
  });

  it('anchors a Korean AI Overview on its "AI 개요" heading and keeps the served language', () => {
    const r = serp(fixture('serp-aio-ko.html'));
    expect(r.diagnostics.servedLanguage).toBe('ko');
    expect(r.diagnostics.tiers.aio).toBe('heading-label');
    expect(r.aioverview?.markdown).toBe(
      [
        '2026년 전기차 구매 보조금은 국비와 지방비를 합쳐 지급되며, 차량 가격과 성능에 따라 금액이 달라집니다.',
        '',
        '주요 기준은 다음과 같습니다.',
        '',
        '1. 차량 가격 5,300만 원 미만이면 보조금 100%를 받을 수 있습니다.',
        '2. 주행거리와 충전 속도가 높을수록 성능 보조금이 늘어납니다.',
      ].join('\n'),
    );
    expect(r.aioverview?.sources).toEqual([
      {
        position: 1,
        url: 'https://www.ev.or.kr/portal/buyersGuide/incenTive',
        label: '무공해차 통합누리집 - 구매보조금 안내',
      },
      { position: 2, url: 'https://news.example.co.kr/article/2026/01/ev-subsidy', label: '2026 전기차 보조금 총정리' },
    ]);
    expect(r.organic).toHaveLength(2);
  });

  it('treats a lazy "Searching" AI Overview shell as no overview, and says so in the diagnostics', () => {
    const r = serp(fixture('serp-aio-placeholder.html'));
    expect(r.aioverview).toBeNull();
    expect(r.diagnostics.aioStatus).toBe('placeholder');
    expect(r.organic).toHaveLength(1);
  });

  it('classifies walls, empties and drift in the documented order', () => {
    expect(failureKind(() => serp(fixture('no-results.html')))).toBe('NO_ANSWER');
    expect(
      failureKind(() =>
        serp(fixture('sorry.html', { status: 429, finalUrl: 'https://www.google.com/sorry/index?continue=x' })),
      ),
    ).toBe('UPSTREAM_BLOCKED');
    // The sorry page is recognised by its captcha form even when status and URL say nothing.
    expect(failureKind(() => serp(fixture('sorry.html')))).toBe('UPSTREAM_BLOCKED');
    expect(failureKind(() => serp(fixture('inline-captcha.html')))).toBe('UPSTREAM_BLOCKED');
    expect(failureKind(() => serp(fixture('enablejs.html')))).toBe('UPSTREAM_BLOCKED');
    expect(
      failureKind(() => serp(fixture('consent.html', { finalUrl: 'https://consent.google.com/ml?continue=x' }))),
    ).toBe('CONSENT_REQUIRED');
    expect(failureKind(() => serp(fixture('consent.html')))).toBe('CONSENT_REQUIRED');
    expect(failureKind(() => serp(fixture('drifted.html')))).toBe('LAYOUT_CHANGED');
  });

  it('parses a page whose results are there despite a consent dialog or captcha markers, and notes them in raw', () => {
    const dialog = serp(fixture('consent-dialog.html'));
    expect(dialog.organic.map((o) => o.url)).toEqual(['https://docs.pydantic.dev/']);
    expect(dialog.diagnostics.walls).toEqual(['consent_dialog']);
    const both = serp(fixture('serp-walls.html'));
    expect(both.organic).toHaveLength(1);
    expect(both.diagnostics.walls).toEqual(['captcha_form', 'consent_form']);
  });

  it('reads a no-results page as NO_ANSWER even with the consent dialog in its markup', () => {
    expect(failureKind(() => serp(fixture('no-results-consent.html')))).toBe('NO_ANSWER');
  });

  it('never takes People also ask for the overview: a page with only People also ask has none', () => {
    const r = serp(fixture('serp-paa-only.html'));
    expect(r.aioverview).toBeNull();
    expect(r.diagnostics.aioStatus).toBe('absent');
    expect(r.organic.map((o) => o.url)).toEqual([
      'https://en.wikipedia.org/wiki/.243_Winchester',
      'https://www.sportsmans.com/243-winchester-rifles',
    ]);
  });

  it(
    'reads the late-2025 overview: aria-hidden headings and lists kept, ' +
      'hidden fallback lines and tooltips out, overlay cards titled',
    () => {
      const r = serp(fixture('serp-aio-cards.html'));
      expect(r.diagnostics.tiers).toMatchObject({ aio: 'YzCcne[data-mcpr]', aioProse: 'main-col' });
      expect(r.aioverview?.markdown).toBe(
        [
          'To get a runny yolk with firm whites, boil fridge-cold eggs for **6 minutes**.',
          '',
          '### Cooling and Peeling',
          '',
          '- **Use an ice bath:** Prepare a bowl of cold water and ice cubes.',
          '- **Peel gently:** Tap the cooled egg on a hard surface to crack the shell.',
        ].join('\n'),
      );
      expect(r.aioverview?.text).not.toMatch(
        /AI Overview|Learn more|not available|generate an AI overview|Copy|Show more|mistakes|Six minutes/,
      );
      expect(r.aioverview?.sources).toEqual([
        {
          position: 1,
          url: 'https://www.recipetineats.com/how-to-boil-eggs/',
          label: 'How to boil eggs - RecipeTin Eats',
        },
        {
          position: 2,
          url: 'https://www.seriouseats.com/perfect-soft-boiled-eggs',
          label: 'Perfect Soft-Boiled Egg Recipe - Serious Eats',
        },
        {
          position: 3,
          url: 'https://www.bbcgoodfood.com/howto/guide/how-boil-egg-perfectly',
          label: 'How long to boil an egg - BBC Good Food',
        },
      ]);
      expect(r.organic.map((o) => o.url)).toEqual(['https://www.bbcgoodfood.com/howto/guide/how-boil-egg-perfectly']);
    },
  );

  it(
    'keeps a source panel inside the answer body out of the text, ' +
      'drops <hr> breaks, and names a chip without "Related results"',
    () => {
      // The 2026 shapes of funkyfunc/fearch's real captures (test/fixtures/real/google/fearch), reduced.
      const chip = (url: string, aria: string, site: string) =>
        `<span class="WBgIic"><span class="NMq1me"><a class="PMDqCb" aria-label="${aria}" href="${url}">` +
        `</a><button class="vDOt8c"><span class="QNca8b">${site}</span></button></span></span>`;
      const card = (url: string, site: string, title: string) =>
        `<div class="iaqvce" role="listitem"><div class="fSJHKf"><a class="POYEld" href="${url}"></a>` +
        `<div class="k9i3ge"><span>${site}</span></div><div aria-hidden="true" class="vFyWT">${title}</div>` +
        `<div class="BEwxRe"><span>A snippet of the page that is no answer…</span></div></div></div>`;
      const html =
        `<html><body><div id="search"><div class="YzCcne" data-mcpr="">` +
        `<div id="m-x-content"><div role="heading" aria-level="2">AI Overview</div>
      <div class="mZJni"><div class="n6owBd">A REST API is a set of rules for two applications to talk over the internet.${chip('https://www.youtube.com/watch?v=abc', 'YouTube - Related results', 'YouTube')}</div>
      <div class="WYczDe"><hr class="s6NV4e"></div><div class="WYczDe">` +
        `<div role="heading" aria-level="3">Direct Comparison</div></div>
      <div class="n6owBd">Every REST API is an API, but not every API is a REST API.${chip('https://codehooks.io/blog/api', 'Related results', 'codehooks.io')}</div>
      <div class="AQisZb" aria-hidden="true"><div role="list">${card('https://codehooks.io/blog/api', 'codehooks.io', 'API vs REST API - codehooks.io')}${card('https://example.org/rest', 'Example', 'REST explained')}</div></div>
      </div></div></div></div></body></html>`;
      const r = serp({ html, status: 200, finalUrl: SEARCH_URL });
      expect(r.aioverview?.text).toBe(
        [
          'A REST API is a set of rules for two applications to talk over the internet.',
          'Direct Comparison',
          'Every REST API is an API, but not every API is a REST API.',
        ].join('\n\n'),
      );
      expect(r.aioverview?.sources).toEqual([
        { position: 1, url: 'https://www.youtube.com/watch?v=abc', label: 'YouTube' },
        { position: 2, url: 'https://codehooks.io/blog/api', label: 'API vs REST API - codehooks.io' },
        { position: 3, url: 'https://example.org/rest', label: 'REST explained' },
      ]);
    },
  );

  it(
    'falls back to the answer body when a capture kept neither markers nor heading, ' +
      'and drops a code widget’s language label',
    () => {
      const html =
        `<html><body><div id="search"><div class="jloFI"><section>` +
        `<div class="FkX2oe"><h3 class="MheKwc">AI Mode reply for vitest timers</h3>
      <div class="pWvJNd"><div class="mZJni">` +
        `<div class="n6owBd">Fake timers stand still until you advance them yourself.</div>
      <div class="WYczDe"><div class="r1PmQe"><div><div class="pHpOfb"><div class="z0e9Qd">` +
        `<div class="vVRw1d">typescript</div></div><div class="pCTyYe"><pre>` +
        `<code>vi.advanceTimersByTime(2000);</code></pre></div></div><div class="LIBz9e">` +
        `<div class="P8PNlb">Use code with caution.</div></div></div></div></div>
      </div></div><div class="ofHStc"><ul><li class="Ndm2cf"><div class="cRH23c"><a class="vIWmYe" href="https://vitest.dev/guide/mocking/timers"></a><div class="gpZmoc"><span>Timers | Vitest</span></div></div></li></ul></div></div></section></div></div></body></html>`;
      const r = serp({ html, status: 200, finalUrl: SEARCH_URL });
      expect(r.diagnostics.tiers).toMatchObject({ aio: 'answer-body', aioProse: 'answer-body' });
      expect(r.aioverview?.markdown).toBe(
        [
          'Fake timers stand still until you advance them yourself.',
          '',
          '```',
          'vi.advanceTimersByTime(2000);',
          '```',
        ].join('\n'),
      );
      expect(r.aioverview?.sources).toEqual([
        { position: 1, url: 'https://vitest.dev/guide/mocking/timers', label: 'Timers | Vitest' },
      ]);
    },
  );

  it('reports a 5xx answer without block markers as an upstream error', () => {
    expect(failureKind(() => serp(fixture('serp-no-aio.html', { status: 503 })))).toBe('UPSTREAM_ERROR');
  });
});

describe('Google AI Mode parser', () => {
  it('reads the answer with inline links, bullets and the dialog sources', () => {
    const r = parseAiModePage(fixture('aimode-answer.html'));
    expect(r.markdown).toContain('A **Roth IRA** is funded with after-tax money');
    expect(r.markdown).toContain('as the [IRS overview](https://www.irs.gov/retirement-plans/roth-iras) explains.');
    expect(r.markdown).toContain('\n- **Income limits:** Roth contributions phase out');
    expect(r.text).not.toMatch(/\*\*|\]\(|Copy text|Good response|may include mistakes|3 sites/);
    expect(r.sources).toEqual([
      {
        position: 1,
        url: 'https://www.irs.gov/retirement-plans/roth-iras',
        label: 'Roth IRAs | Internal Revenue Service',
      },
      {
        position: 2,
        url: 'https://www.investopedia.example/roth-vs-traditional-ira',
        label: 'Roth IRA vs. Traditional IRA: Key Differences',
      },
      {
        position: 3,
        url: 'https://www.nerdwallet.example/article/investing/roth-or-traditional-ira-account',
        label: 'Roth vs. Traditional IRA: Which Is Right for You?',
      },
    ]);
    expect(r.diagnostics).toEqual({
      servedLanguage: 'en',
      tiers: { container: 'data-subtree=aimc', prose: 'main-col' },
      turnQuery: 'what is the difference between a roth ira and a traditional ira',
      walls: [],
    });
  });

  it('keeps headings, the ordered list and the table as GFM in markdown, flattened in text', () => {
    const r = parseAiModePage(fixture('aimode-table-list.html'));
    expect(r.markdown).toBe(
      [
        'Pydantic v2 was released in June 2023 and rewrote the core in Rust.',
        '',
        '### Steps',
        '',
        '1. Run the bump-pydantic codemod.',
        '2. Replace `validator` with `field_validator`.',
        '3. Re-run your test suite and fix the remaining `Config` classes.',
        '',
        '### Renamed methods',
        '',
        '| v1 | v2 |',
        '| --- | --- |',
        '| .dict() | .model_dump() |',
        '| .parse_obj() | .model_validate() |',
      ].join('\n'),
    );
    expect(r.text).toContain('Steps\n\n1. Run the bump-pydantic codemod.');
    expect(r.text).toContain('v1 | v2\n.dict() | .model_dump()\n.parse_obj() | .model_validate()');
    expect(r.sources.map((s) => [s.position, s.url])).toEqual([
      [1, 'https://docs.pydantic.dev/latest/migration/'],
      [2, 'https://github.com/pydantic/bump-pydantic'],
      [3, 'https://example.org/guide?id=7'],
    ]);
  });

  it('classifies AI Mode outcomes: unavailable, daily limit, still generating, walls, drift', () => {
    expect(failureKind(() => parseAiModePage(fixture('aimode-unavailable.html')))).toBe('NO_ANSWER');
    expect(failureKind(() => parseAiModePage(fixture('no-results.html')))).toBe('NO_ANSWER');
    expect(failureKind(() => parseAiModePage(fixture('aimode-daily-limit.html')))).toBe('RATE_LIMITED');
    expect(failureKind(() => parseAiModePage(fixture('aimode-pending.html')))).toBe('TIMEOUT');
    expect(failureKind(() => parseAiModePage(fixture('sorry.html', { status: 429 })))).toBe('UPSTREAM_BLOCKED');
    expect(failureKind(() => parseAiModePage(fixture('enablejs.html')))).toBe('UPSTREAM_BLOCKED');
    expect(failureKind(() => parseAiModePage(fixture('consent.html')))).toBe('CONSENT_REQUIRED');
    expect(failureKind(() => parseAiModePage(fixture('drifted.html')))).toBe('LAYOUT_CHANGED');
  });
});

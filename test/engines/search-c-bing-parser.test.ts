import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unwrapBingLink } from '../../src/engines/search-c/bing-links.js';
import { bingRegion, regionHeaders, regionParams } from '../../src/engines/search-c/bing-region.js';
import { parseResultCount } from '../../src/engines/search-c/bing-result-count.js';
import { parseBingSerp } from '../../src/engines/search-c/bing-serp-parser.js';
import { failureKind } from '../helpers/failures.js';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/search-c/${name}`, import.meta.url), 'utf8');

describe('Bing SERP parser over fixtures', () => {
  it('extracts page 1: ads excluded, /ck/a unwrapped, snippet without the slug, duplicates dropped', () => {
    const serp = parseBingSerp(fixture('bing-serp-page1.html'), 1);
    expect(serp.pageCheck).toBe('match');
    expect(serp.titleTier).toBe('h2>a');
    expect(serp.results.map((r) => r.position)).toEqual([1, 2, 3, 4, 5]);
    expect(serp.results.map((r) => r.url)).toEqual([
      'https://www.rtings.com/laptop/reviews/best/laptop',
      'https://www.pcmag.com/picks/the-best-laptops',
      'https://www.theverge.com/22658806/best-laptop',
      'https://www.tomsguide.com/us/best-laptops,review-2161.html',
      'https://www.wired.com/gallery/best-laptops/',
    ]);
    const [first, second, third, fourth] = serp.results;
    expect(first).toMatchObject({ title: 'The 6 Best Laptops of 2026 - RTINGS.com', site: 'RTINGS.com' });
    expect(first?.snippet).toMatch(/^Jan 12, 2026 · We've bought and tested/);
    expect(second?.snippet).not.toMatch(/^Web/);
    expect(second?.snippet).toContain('best laptops');
    // No .tptt: the site falls back to the host; no .b_caption: any <p> in the item.
    expect(third?.site).toBe('theverge.com');
    expect(fourth).toMatchObject({ title: "Best laptops 2026: tested and rated | Tom's Guide", site: "Tom's Guide" });
    expect(fourth?.snippet).toMatch(/^The best laptops we've tested/);
    expect(serp.results.some((r) => /Sale|Sponsored/.test(r.title))).toBe(false);
  });

  it('numbers page 2 from 11 when sb_count starts at 11', () => {
    const serp = parseBingSerp(fixture('bing-serp-page2.html'), 11);
    expect(serp.results.map((r) => r.position)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(serp.count).toEqual({ rangeStart: 11, total: 1_230_000 });
    expect(serp.results[0]?.url).toBe('https://www.notebookcheck.net/best-laptops-page-11');
  });

  it('reports page-1 results for a page-2 request as RATE_LIMITED', () => {
    expect(failureKind(() => parseBingSerp(fixture('bing-serp-mismatch.html'), 11))).toBe('RATE_LIMITED');
    // A page-1 style count ("About N results") for a page-2 request is the same soft limit.
    expect(failureKind(() => parseBingSerp(fixture('bing-serp-page1.html'), 11))).toBe('RATE_LIMITED');
  });

  it('reports a request past the last result as NO_ANSWER', () => {
    expect(failureKind(() => parseBingSerp(fixture('bing-serp-past-end.html'), 91))).toBe('NO_ANSWER');
  });

  it('recognises the HTTP-200 captcha interstitial as UPSTREAM_BLOCKED', () => {
    expect(failureKind(() => parseBingSerp(fixture('bing-captcha.html'), 1))).toBe('UPSTREAM_BLOCKED');
  });

  it('parses a results page about captchas normally', () => {
    const serp = parseBingSerp(fixture('bing-captcha-topic.html'), 1);
    expect(serp.results).toHaveLength(3);
    expect(serp.results[0]).toMatchObject({
      position: 1,
      url: 'https://en.wikipedia.org/wiki/CAPTCHA',
      title: 'CAPTCHA - Wikipedia',
    });
  });

  it('treats the "There are no results for" page as NO_ANSWER', () => {
    expect(failureKind(() => parseBingSerp(fixture('bing-no-results.html'), 1))).toBe('NO_ANSWER');
  });

  it('treats an empty list without the no-results text as a silent block', () => {
    expect(failureKind(() => parseBingSerp(fixture('bing-silent-empty.html'), 1))).toBe('UPSTREAM_BLOCKED');
  });

  it('raises LAYOUT_CHANGED when li.b_algo or ol#b_results drifted', () => {
    expect(failureKind(() => parseBingSerp(fixture('bing-drifted-item.html'), 1))).toBe('LAYOUT_CHANGED');
    expect(failureKind(() => parseBingSerp(fixture('bing-drifted-anchor.html'), 1))).toBe('LAYOUT_CHANGED');
  });
});

describe('Bing helpers', () => {
  it('unwraps /ck/a links and keeps other links', () => {
    expect(unwrapBingLink('https://www.bing.com/ck/a?!&&p=abc&u=a1aHR0cHM6Ly9leGFtcGxlLmNvbS9wYWdl&ntb=1')).toBe(
      'https://example.com/page',
    );
    expect(unwrapBingLink('/ck/a?!&&p=abc&u=a1aHR0cHM6Ly9leGFtcGxlLmNvbS9wYWdl&ntb=1')).toBe(
      'https://example.com/page',
    );
    expect(unwrapBingLink('https://example.org/a?utm_source=x&id=1')).toBe('https://example.org/a?id=1');
    // A payload that does not decode to a URL is kept as it is.
    expect(unwrapBingLink('https://www.bing.com/ck/a?u=zzgarbage')).toBe('https://www.bing.com/ck/a?u=zzgarbage');
  });

  it('reads sb_count in several locales', () => {
    expect(parseResultCount('About 1,230,000 results')).toEqual({ rangeStart: null, total: 1_230_000 });
    expect(parseResultCount('11-20 of 1,230,000 results')).toEqual({ rangeStart: 11, total: 1_230_000 });
    expect(parseResultCount('11-20 von 1.230.000 Ergebnissen')).toEqual({ rangeStart: 11, total: 1_230_000 });
    expect(parseResultCount('1,230,000개 결과 중 21-30')).toEqual({ rangeStart: 21, total: 1_230_000 });
  });

  it('derives market, language, cookies and Accept-Language from the country', () => {
    const kr = bingRegion('kr');
    expect(regionParams(kr)).toEqual({ cc: 'KR', setlang: 'ko', mkt: 'ko-KR' });
    expect(regionHeaders(kr)).toEqual({
      'accept-language': 'ko-KR,ko;q=0.9',
      cookie: '_EDGE_CD=m=ko-KR&u=ko; _EDGE_S=mkt=ko-KR&ui=ko',
    });
    expect(regionParams(bingRegion('US'))).toEqual({ cc: 'US', setlang: 'en', mkt: 'en-US' });
    // A country without its own market keeps its cc and falls back to en-US.
    expect(regionParams(bingRegion('VN'))).toEqual({ cc: 'VN', setlang: 'en', mkt: 'en-US' });
  });
});

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../src/engines/common/page-extract.js';
import { pageAuthor, pageDates, toIsoDate } from '../../src/analysis/source-influence/extended/page-facts.js';
import { decodePage, isWallPage } from '../../src/analysis/source-influence/page-decode.js';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/analysis/${name}`, import.meta.url));
const FETCHED_AT = Date.UTC(2026, 0, 1);

describe('page reading for SOURCE_INFLUENCE (§2.4)', () => {
  it('extracts the article with Readability and keeps metadata for §2.11.3', () => {
    const html = decodePage(fixture('page-en.html'), 'text/html; charset=utf-8', 'news.example.com');
    const page = extractHtml(html, 'https://news.example.com/2024/03/04/cushioning', 200, 100);
    expect(page.textSource).toBe('extracted');
    expect(page.text).toContain('Most runners replace their running shoes every 500 to 800 kilometres');
    expect(page.text).not.toContain('All rights reserved');
    expect(page.metadata.siteName).toBe('Daily Runner News');
    expect(page.metadata.htmlLang).toBe('en');
    expect(pageDates(page.metadata, 'https://news.example.com/a', page.text, FETCHED_AT)).toEqual({
      publishedAt: '2024-03-04',
      modifiedAt: '2024-03-06',
      dateSource: 'json_ld',
    });
    expect(pageAuthor(page.metadata, page.text)).toEqual({ name: 'Jane Miller', kind: 'person', source: 'json_ld' });
  });

  it('decodes an EUC-KR page from its meta charset and finds the Korean byline and text date', () => {
    const html = decodePage(fixture('page-ko-euckr.html'), 'text/html', 'pets.example.co.kr');
    const page = extractHtml(html, 'https://pets.example.co.kr/a', 200, 100);
    expect(page.text).toContain('소형견에게는 단백질 함량이 높은 강아지 사료가 적합합니다');
    expect(pageDates(page.metadata, 'https://pets.example.co.kr/a', page.text, FETCHED_AT)).toMatchObject({
      publishedAt: '2024-05-20',
      dateSource: 'text',
    });
    expect(pageAuthor(page.metadata, page.text)).toEqual({ name: '김하늘', kind: 'person', source: 'text' });
  });

  it('retries EUC-KR for a .kr host when a page without charset labels decodes badly as UTF-8', () => {
    const raw = fixture('page-ko-euckr.html')
      .toString('latin1')
      .replace(/<meta http-equiv[^>]+>/, '');
    const html = decodePage(Buffer.from(raw, 'latin1'), 'text/html', 'pets.example.co.kr');
    expect(html).toContain('소형견 사료 고르는 법');
  });

  it('reads a Readability-hostile page through a fallback and refuses a script shell', () => {
    const hostile = extractHtml(fixture('page-hostile.html').toString('utf8'), 'https://trail.example.com/', 200, 100);
    expect(hostile.text).toContain('Trail models add a rock plate');
    const shell = extractHtml(fixture('page-shell.html').toString('utf8'), 'https://app.example.com/', 200, 100);
    expect(shell.text).toBeNull();
  });

  it('recognises captcha and challenge pages, not ordinary pages', () => {
    expect(isWallPage(200, {}, fixture('page-captcha.html').toString('utf8'), 'https://x.example.com/')).toBe(true);
    expect(isWallPage(403, { 'cf-mitigated': 'challenge' }, '<html></html>', 'https://x.example.com/')).toBe(true);
    expect(isWallPage(200, {}, fixture('page-en.html').toString('utf8'), 'https://x.example.com/')).toBe(false);
    expect(isWallPage(200, {}, '<html>ok</html>', 'https://nid.naver.com/nidlogin.login')).toBe(true);
  });

  it('accepts dates only between 1995-01-01 and the fetch time plus a day', () => {
    expect(toIsoDate('2024년 3월 3일', FETCHED_AT)).toBe('2024-03-03');
    expect(toIsoDate('March 3, 2024', FETCHED_AT)).toBe('2024-03-03');
    expect(toIsoDate('1990-01-01', FETCHED_AT)).toBeNull();
    expect(toIsoDate('2030-01-01', FETCHED_AT)).toBeNull();
  });
});

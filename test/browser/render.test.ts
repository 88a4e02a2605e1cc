import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../src/transport/browser/browser-pool.js';
import type { BrowserTransport, PageProbe } from '../../src/transport/browser/browser-transport.js';
import { createLogger } from '../../src/ops/logger.js';
import { asyncFailureOf } from '../helpers/failures.js';
import { CHROMIUM_PATH, chromiumAvailable } from './chromium.js';
import { startTestSite, type TestSite } from './test-site.js';

/** BrowserTransport.render against pages that change their DOM by script, on a local site. */
describe.skipIf(!chromiumAvailable())('browser render', () => {
  let site: TestSite;
  let pool: BrowserPool;
  const browser = (country = 'US'): BrowserTransport =>
    pool.forAttempt({ exit: { id: 'direct-test' }, country, signal: new AbortController().signal });

  beforeAll(async () => {
    site = await startTestSite();
    pool = new BrowserPool({
      executablePath: CHROMIUM_PATH,
      maxPages: 2,
      log: createLogger('silent'),
      guardPrivate: false,
    });
  });
  afterAll(async () => {
    await pool.close();
    await site.close();
  });

  it('waits for a marker the page script inserts, and returns the rendered DOM with the main status', async () => {
    const page = await browser().render(`${site.url}/dynamic`, { waitFor: '#answer p', timeoutMs: 15_000 });
    expect(page.complete).toBe(true);
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${site.url}/dynamic`);
    expect(page.html).toContain('First part of the answer.');
    expect(page.timings).toMatchObject({ navigationMs: expect.any(Number), totalMs: expect.any(Number) });
  });

  it('with a stability window it waits until the streamed parts have all arrived', async () => {
    const page = await browser().render(`${site.url}/dynamic`, {
      waitFor: '#answer p',
      stableSelector: '#answer',
      stableMs: 600,
      pollMs: 50,
      timeoutMs: 15_000,
    });
    expect(page.complete).toBe(true);
    expect(page.html).toContain('First part of the answer.');
    expect(page.html).toContain('Second part, with a <a href="https://example.org/source">source</a>.');
  });

  it('`until` holds stability back until the page says it is ready', async () => {
    const seen: Array<{ text: string; links: string[] } | null> = [];
    const until = async (p: PageProbe) => {
      const answer = await p.read('#answer');
      seen.push(answer);
      return answer !== null && answer.links.length > 0;
    };
    const page = await browser().render(`${site.url}/dynamic`, { until, stableMs: 100, pollMs: 50, timeoutMs: 15_000 });
    expect(page.complete).toBe(true);
    expect(page.html).toContain('<div id="answer"><p>');
    // The probe saw the loading state first, and the source link once it arrived.
    expect(seen[0]?.text).toBe('Loading');
    expect(seen.at(-1)?.links).toEqual(['https://example.org/source']);
  });

  it('a marker that never appears ends the render incomplete at its budget, with the page as it was', async () => {
    const page = await browser().render(`${site.url}/static`, { waitFor: '#never-there', timeoutMs: 1200 });
    expect(page.complete).toBe(false);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Nothing will change here.');
  });

  it('a page without any of the watched regions (a wall, another kind of page) has nothing to wait for', async () => {
    // A stability window longer than the budget: only "nothing to watch" can make this complete.
    const page = await browser().render(`${site.url}/static`, {
      stableSelector: ['#answer', '.answer'],
      stableMs: 60_000,
      timeoutMs: 10_000,
    });
    expect(page.complete).toBe(true);
  });

  it('follows redirects and reports the final URL', async () => {
    const page = await browser().render(`${site.url}/redirect`, { waitFor: '#answer p', timeoutMs: 15_000 });
    expect(page.url).toBe(`${site.url}/dynamic`);
    expect(page.status).toBe(200);
  });

  it('reports a non-2xx main response status for the parser to judge', async () => {
    const page = await browser().render(`${site.url}/missing`, { timeoutMs: 15_000 });
    expect(page.status).toBe(404);
    expect(page.html).toContain('Not found');
  });

  it('maps navigation failures: a refused connection is UPSTREAM_ERROR, no answer in time is TIMEOUT', async () => {
    const closed = await startTestSite();
    const deadUrl = closed.url;
    await closed.close();
    const refused = await asyncFailureOf(() => browser().render(`${deadUrl}/static`, { timeoutMs: 10_000 }));
    expect(refused.kind).toBe('UPSTREAM_ERROR');
    expect(refused.message).toMatch(/ERR_CONNECTION_REFUSED/);
    const slow = await asyncFailureOf(() => browser().render(`${site.url}/never`, { timeoutMs: 1000 }));
    expect(slow.kind).toBe('TIMEOUT');
  });

  it('does not download images', async () => {
    const page = await browser().render(`${site.url}/with-image`, { waitFor: '#text', timeoutMs: 15_000 });
    expect(page.html).toContain('Text beside an image.');
    expect(site.hits.get('/pixel.png') ?? 0).toBe(0);
  });

  it('takes locale, Accept-Language and time zone from the country, and the adapter headers and cookies', async () => {
    const page = await browser('KR').render(`${site.url}/echo`, {
      waitFor: '#intl:not(:empty)',
      timeoutMs: 15_000,
      headers: { cookie: 'CONSENT=YES+; NID=abc', 'x-extra': 'kept', accept: 'text/html' },
    });
    const headers = JSON.parse(decode(/<pre id="headers">(.*?)<\/pre>/s.exec(page.html)?.[1] ?? '{}')) as Record<
      string,
      string
    >;
    const intl = JSON.parse(decode(/<p id="intl">(.*?)<\/p>/s.exec(page.html)?.[1] ?? '{}')) as Record<string, unknown>;
    expect(headers['accept-language']).toMatch(/^ko-KR,ko;q=0\.9/);
    expect(headers.cookie).toBe('CONSENT=YES+; NID=abc');
    expect(headers['x-extra']).toBe('kept');
    expect(headers['user-agent']).toMatch(/Chrome\/\d+/);
    expect(headers['user-agent']).not.toMatch(/Headless/);
    expect(intl).toMatchObject({
      language: 'ko-KR',
      languages: ['ko-KR', 'ko', 'en-US', 'en'],
      timeZone: 'Asia/Seoul',
    });
    expect(intl.userAgent).toBe(headers['user-agent']);
    // Client hints agree with the user agent: no "HeadlessChrome" brand.
    expect(intl.brands).toContain('Google Chrome');
    expect(intl.brands).not.toContain('HeadlessChrome');
  });

  it('a configured user agent replaces the default one', async () => {
    const page = await browser('DE').render(`${site.url}/echo`, {
      waitFor: '#intl:not(:empty)',
      timeoutMs: 15_000,
      headers: { 'User-Agent': 'aeq-test-agent/1.0' },
    });
    expect(page.html).toContain('"user-agent":"aeq-test-agent/1.0"');
    expect(page.html).toContain('Europe/Berlin');
  });
});

function decode(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

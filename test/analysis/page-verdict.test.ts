import fs from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractHtml } from '../../src/engines/common/page-extract.js';
import { isWallPage } from '../../src/analysis/source-influence/page-decode.js';
import { waitTerminal, type RunningService } from '../helpers/service.js';
import { startAnalysisService, submitAnalysis } from './analysis-service.js';
import { startPagesServer, type PagesServer } from './pages-server.js';

/**
 * Wall or page, on recorded pages nobody here wrote (test/fixtures/analysis/pages/PROVENANCE.md): a
 * block needs a challenge's structure, headers or URL, never a phrase of the text; a short page is a
 * source, read and flagged, not dropped (docs/analysis.md#s2-4).
 */
const recorded = (path: string) => {
  const raw = fs.readFileSync(new URL(`../fixtures/${path}`, import.meta.url));
  return (path.endsWith('.gz') ? zlib.gunzipSync(raw) : raw).toString('utf8');
};

/** [fixture path, recorded status, recorded headers, URL it was served from]. */
const CHALLENGES: Array<[string, number, Record<string, string>, string]> = [
  ['analysis/pages/cf-js-challenge-2019-12-11.html', 503, { server: 'cloudflare' }, 'https://site.example/'],
  ['analysis/pages/cf-js-challenge-2020-05-27.html', 503, { server: 'cloudflare' }, 'https://site.example/'],
  ['analysis/pages/cf-recaptcha-challenge-2019-12-12.html', 403, { server: 'cloudflare' }, 'https://site.example/'],
  ['analysis/pages/google-sorry-2026-07-25.html', 429, {}, 'https://www.google.com/sorry/index?continue=x'],
  ['real/bing/modern/wsm-challenge.html.gz', 200, {}, 'https://www.bing.com/search?q=javascript+tutorial'],
];

/** Real pages whose markup names a captcha, a challenge script or a captcha phrase. */
const PAGES: Array<[string, string]> = [
  ['analysis/pages/traf-klaenge-geschichte.html', 'Das „schwarze Schaf“ unserer Familie'],
  ['analysis/pages/traf-economist-thinking.html.gz', 'about the role that the proportion of men and women in'],
  ['real/web/zyte/zyte-21486419bb10.html.gz', 'Jangan Membenci Satu Kaum'],
  ['real/bing/modern/celina-caffeine-sleep.html.gz', 'caffeine'],
];

const SHORT_PAGE = 'analysis/pages/traf-it-for-kids-variables.html';
const SHORT_SNIPPETS = [
  'Wie war das nochmal mit den Variablen',
  'Variablen sind kein Problem für dich?',
  'Auszug aus unseren Lehrmaterialien',
];

describe('page verdicts on recorded pages', () => {
  it.each(CHALLENGES)('%s is a wall', (path, status, headers, url) => {
    expect(isWallPage(status, headers, recorded(path), url)).toBe(true);
  });

  it('a challenge form is a wall without its status, headers or URL', () => {
    for (const path of CHALLENGES.map((c) => c[0])) {
      expect(isWallPage(200, {}, recorded(path), 'https://pages.example/a'), path).toBe(true);
    }
  });

  it.each(PAGES)('%s is read, not a wall', (path, text) => {
    const html = recorded(path);
    expect(html).toMatch(/not a robot|_Incapsula_Resource|g-recaptcha|cf-turnstile/i);
    expect(html).toContain(text);
    expect(isWallPage(200, {}, html, 'https://pages.example/a')).toBe(false);
  });

  it('the phrases alone are no wall: the sorry page text inside an article', () => {
    // The sorry page's own words, as an article about captchas would quote them.
    const sorry = recorded('analysis/pages/google-sorry-2026-07-25.html');
    const words = /Our systems have detected[^<]+/.exec(sorry)?.[0] ?? '';
    expect(words).toContain('not a robot');
    const article = recorded('analysis/pages/traf-it-for-kids-variables.html').replace(
      'Hier ein Auszug',
      `${words} Hier ein Auszug`,
    );
    expect(isWallPage(200, {}, article, 'https://it-for-kids.org/blog/191211_variables/')).toBe(false);
  });

  it('a short real page keeps its text, flagged short', () => {
    const page = extractHtml(recorded(SHORT_PAGE), 'https://it-for-kids.org/blog/191211_variables/', 200, 100);
    expect(page.short).toBe(true);
    for (const s of SHORT_SNIPPETS) expect(page.text).toContain(s);
    expect(page.text).not.toContain('Impressum');
  });
});

describe('page verdicts through the service (real fetch path, loopback server)', () => {
  let svc: RunningService;
  let pages: PagesServer;
  beforeAll(async () => {
    pages = await startPagesServer();
    svc = await startAnalysisService({ model: false });
  });
  afterAll(async () => {
    await svc.stop();
    await pages.close();
  });

  it('challenge pages are blocked, pages naming captchas are read, a short page is read and flagged', async () => {
    const at = (path: string, status = 200, server?: string) =>
      `${pages.base}/recorded/${path}?status=${status}${server ? `&server=${server}` : ''}`;
    const citations = [
      { url: at('analysis/pages/cf-js-challenge-2019-12-11.html', 503, 'cloudflare'), title: 'Cloudflare JS' },
      { url: at('analysis/pages/cf-recaptcha-challenge-2019-12-12.html', 403, 'cloudflare'), title: 'Cloudflare' },
      { url: at('analysis/pages/google-sorry-2026-07-25.html', 429), title: 'Google sorry' },
      { url: at('analysis/pages/traf-klaenge-geschichte.html'), title: 'Klänge des Verschweigens' },
      { url: at('real/web/zyte/zyte-21486419bb10.html.gz'), title: 'Kabar Islamia' },
      { url: at(SHORT_PAGE), title: 'Variablen und ihr Zuhause' },
    ];
    const answer =
      'Das schwarze Schaf der Familie war ein Unterhaltungsmusiker [4]. ' +
      'Variablen sind kein Problem, probiere das Puzzle aus den Lehrmaterialien [6].';
    const id = await submitAnalysis(svc, '/v1/source-influence', { answer, prompt: 'Was sind Variablen?', citations });
    const view = await waitTerminal(svc, id, 30_000);
    expect(view.task).toMatchObject({ taskType: 'SOURCE_INFLUENCE', status: 'COMPLETED' });
    const r = view.response;
    const status = r.sources.map((s: { fetch: { status: string } }) => s.fetch.status);
    expect(status).toEqual(['blocked', 'blocked', 'blocked', 'ok', 'ok', 'ok']);

    const short = r.sources[5];
    expect(short.fetch).toMatchObject({ status: 'ok', short: true });
    expect(short.text.source).not.toBe('title');
    expect(short.text.chars).toBeLessThan(300);
    expect(r.sources[3].fetch.short).toBe(false);
    const codes = r.warnings.map((w: { code: string; sourceId?: string }) => `${w.code}:${w.sourceId ?? ''}`);
    expect(codes).toContain(`SOURCE_TEXT_SHORT:${short.sourceId}`);
    expect(codes).not.toContain(`SOURCE_FETCH_FAILED:${short.sourceId}`);
    expect(codes.filter((c: string) => c.startsWith('SOURCE_TEXT_SHORT'))).toHaveLength(1);
  });
});

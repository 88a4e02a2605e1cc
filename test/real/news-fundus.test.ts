/**
 * WEB_SCRAPE held-out news corpus: 150 news article pages of publishers from 31 countries with the article body a
 * maintained news-parsing project asserts for them (test/fixtures/real/news-fundus, PROVENANCE.md there). The pages
 * were chosen by a fixed rule (bench/reader/fundus-corpus.ts) and read once after the cleanup rules were final, then
 * once more after a second round decided on development slices only (fundus's other pages among them); nothing was
 * tuned on these pages. Each page is read through the service over HTTP; aeq's `text` and Readability's own text
 * from the same read are scored against the expected body by bag-of-words F1.
 *
 * The 95% target at F1 >= 0.9 is not met here (docs/real-inputs.md gives the loss classes): the test asserts the
 * measured share less a margin, so a regression fails it while the gap stays visible.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINE_ERROR_SENTENCES } from '../../src/domain/engine-errors.js';
import { heldOutChecks, readCorpusOnce, type ArticlePage } from './article-corpus.js';

const DIR = new URL('../fixtures/real/news-fundus/', import.meta.url);
const pages = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as ArticlePage[];

const F1_PASS = 0.9;
/**
 * The first read (2026-11-29): 135 of 150 pages (90.0%) at F1 >= 0.9; the second, 136 (90.7%). The floor is the first
 * less three pages' worth; the service is deterministic on replayed pages, so only a change of the reader moves it.
 */
const PASS_FLOOR = 0.88;
/**
 * The one page that does not complete: a Next.js page whose article is only in its script data (the flight payload),
 * not in the DOM a reader without JavaScript sees; it ends FAILED with a catalogued code, not a crash.
 */
const UNREADABLE = ['fundus-7b16e466ede3'];

describe('WEB_SCRAPE on a held-out news corpus (news-fundus)', () => {
  const outcomes = readCorpusOnce('news-fundus (held out)', pages, DIR, F1_PASS);

  it('holds 150 distinct pages, each with an expected body', () => {
    expect(pages).toHaveLength(150);
    expect(new Set(pages.map((p) => p.id)).size).toBe(150);
    expect(new Set(pages.map((p) => p.url)).size).toBe(150);
    for (const p of pages) expect(p.expectedText.trim(), p.id).not.toBe('');
  });

  it('completes every page but the one whose article is only in script data, failing with a catalogued code', () => {
    expect(outcomes).toHaveLength(pages.length);
    const codes = new Set(Object.keys(ENGINE_ERROR_SENTENCES));
    const notCompleted = outcomes.filter((o) => o.status !== 'COMPLETED');
    expect(notCompleted.map((o) => o.page.id)).toEqual(UNREADABLE);
    for (const o of notCompleted) {
      expect(o.status, o.page.id).toBe('FAILED');
      expect(codes.has((o.code ?? '').split(':', 1)[0] ?? ''), `${o.page.id}: ${o.code}`).toBe(true);
    }
  });

  heldOutChecks(outcomes, { f1Pass: F1_PASS, floor: PASS_FLOOR, measured: '90.7%' });
});

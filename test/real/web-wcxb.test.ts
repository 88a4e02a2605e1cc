/**
 * WEB_SCRAPE third held-out corpus: 107 article pages of the held-out test split of a web content extraction
 * benchmark, with their reviewed main content (test/fixtures/real/web-wcxb, PROVENANCE.md there). The pages were
 * chosen by a fixed rule (bench/reader/wcxb-corpus.ts) and read once, on 2026-11-29, with the reader's rules as they
 * were; nothing was changed after that read for it (later rounds, decided on development slices, read it once
 * each). Each page is read through the service over HTTP; aeq's `text` and Readability's own text from the same read
 * are scored against the expected text by bag-of-words F1.
 *
 * The 95% target at F1 >= 0.9 is not met here (docs/real-inputs.md gives the loss classes): the test asserts the
 * measured share less a margin, so a regression fails it while the gap stays visible.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heldOutChecks, readCorpusOnce, type ArticlePage } from './article-corpus.js';

const DIR = new URL('../fixtures/real/web-wcxb/', import.meta.url);
const pages = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as ArticlePage[];

const PAGES = 107;
const F1_PASS = 0.9;
/**
 * The first read (2026-11-29): 96 of 107 pages (89.7%) at F1 >= 0.9; after the partial pick's region (decided on
 * development slices, docs/engines.md#partial-pick), 97 (90.7%). The floor is that less three pages; the service is
 * deterministic on replayed pages, so only a change of the reader moves it.
 */
const PASS_FLOOR = 94 / PAGES;

describe('WEB_SCRAPE on a third held-out corpus (web-wcxb)', () => {
  const outcomes = readCorpusOnce('web-wcxb (held out)', pages, DIR, F1_PASS);

  it(`holds ${PAGES} distinct pages, each with an expected text`, () => {
    expect(pages).toHaveLength(PAGES);
    expect(new Set(pages.map((p) => p.id)).size).toBe(PAGES);
    expect(new Set(pages.map((p) => p.url)).size).toBe(PAGES);
    for (const p of pages) expect(p.expectedText.trim(), p.id).not.toBe('');
  });

  it('completes every page', () => {
    const failed = outcomes.filter((o) => o.status !== 'COMPLETED').map((o) => `${o.page.id}: ${o.code ?? o.status}`);
    expect(failed).toEqual([]);
  });

  heldOutChecks(outcomes, { f1Pass: F1_PASS, floor: PASS_FLOOR, measured: '90.7%' });
});

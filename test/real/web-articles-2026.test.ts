/**
 * WEB_SCRAPE second held-out corpus: 150 article pages of the web in 2025-2026 with annotated article text
 * (test/fixtures/real/web-articles-2026, PROVENANCE.md there). The cleanup rules were decided on
 * test/fixtures/real/web and a development slice of the same benchmark; two defects this set showed were fixed after
 * its first read, so it is held out but no longer blind (PROVENANCE.md). Each page is read through the service over
 * HTTP; aeq's `text` and
 * Readability's own text from the same read are scored against the expected text by bag-of-words F1.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mean, readCorpusOnce, type ArticlePage } from './article-corpus.js';

const DIR = new URL('../fixtures/real/web-articles-2026/', import.meta.url);
const pages = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as ArticlePage[];

const F1_PASS = 0.9;

describe('WEB_SCRAPE on a second held-out corpus (web-articles-2026)', () => {
  const outcomes = readCorpusOnce('web-articles-2026 (held out)', pages, DIR, F1_PASS);

  it('holds 150 distinct pages', () => {
    expect(pages).toHaveLength(150);
    expect(new Set(pages.map((p) => p.id)).size).toBe(150);
  });

  it('completes every page', () => {
    const failed = outcomes.filter((o) => o.status !== 'COMPLETED').map((o) => `${o.page.id}: ${o.code ?? o.status}`);
    expect(failed).toEqual([]);
  });

  it('reaches F1 >= 0.9 on at least 95% of the pages', () => {
    expect(mean(outcomes.map((o) => (o.aeq.f1 >= F1_PASS ? 1 : 0)))).toBeGreaterThanOrEqual(0.95);
  });

  // The form rule was decided on a development slice of the benchmark, whose pages are not stored; this is its real
  // page here (a lead form's labels and a spam trap's notice, none of it article text).
  it('form removes boilerplate on a real page', () => {
    const o = outcomes.find((x) => x.page.id === 'wceb-829a17820286');
    const hit = o?.removed.find((b) => b.rule === 'form' && /This field is for validation purposes/.test(b.text));
    expect(hit).toBeDefined();
    expect(hit?.articleText).toBe(false);
  });

  it("reads as much of the articles as Readability alone: a mean F1 at or above Readability's", () => {
    const aeq = mean(outcomes.map((o) => o.aeq.f1));
    const readability = mean(outcomes.map((o) => o.readability.f1));
    expect(aeq).toBeGreaterThanOrEqual(readability);
  });
});

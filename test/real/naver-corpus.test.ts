/**
 * SEARCH_B_SERP against real saved Naver result pages (test/fixtures/real/naver, PROVENANCE.md there).
 * A loopback server answers the adapter's `/search.naver?…&query=…` with the recorded page for that
 * query; the real adapter runs through the service over HTTP, and its results are scored against
 * the organic results the source project asserts (exact URL and title).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asExpected,
  foundShare,
  queryKey,
  reportSerpCorpus,
  runSerpCorpus,
  type CorpusSerp,
  type SerpCorpusRun,
  type SerpOutcome,
} from './serp-corpus.js';

const DIR = new URL('../fixtures/real/naver/', import.meta.url);
const pages = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as CorpusSerp[];

const FOUND_TARGET = 0.95;

describe('SEARCH_B_SERP on real saved Naver pages', () => {
  let run: SerpCorpusRun | undefined;
  let outcomes: SerpOutcome[] = [];

  beforeAll(async () => {
    run = await runSerpCorpus({
      taskType: 'SEARCH_B_SERP',
      dir: DIR,
      pages,
      keyOfPage: (p) => queryKey(p.query),
      keyOfRequest: (u) => (u.pathname === '/search.naver' ? queryKey(u.searchParams.get('query') ?? '') : undefined),
      payload: (p) => ({ query: p.query, page: p.page }),
      parallel: 4,
    });
    outcomes = run.outcomes;
    reportSerpCorpus('SEARCH_B_SERP real-page corpus (Naver)', outcomes);
  }, 600_000);

  afterAll(async () => {
    await run?.stop();
  });

  it('holds the corpus: every page of the source, results and out-of-scope pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(10);
    expect(new Set(pages.map((p) => p.id)).size).toBe(pages.length);
    expect(new Set(pages.map((p) => queryKey(p.query))).size).toBe(pages.length);
    expect(
      pages.filter((p) => p.expect === 'results').reduce((n, p) => n + (p.results?.length ?? 0), 0),
    ).toBeGreaterThanOrEqual(45);
    expect(outcomes).toHaveLength(pages.length);
  });

  it('completes every page that holds results', () => {
    const failed = outcomes.filter((o) => o.page.expect === 'results' && o.status !== 'COMPLETED');
    expect(failed.map((o) => `${o.page.id}: ${o.code} ${o.kind}`)).toEqual([]);
  });

  it(`finds at least ${FOUND_TARGET * 100}% of the expected organic results with the exact URL and title`, () => {
    expect(foundShare(outcomes).share).toBeGreaterThanOrEqual(FOUND_TARGET);
    // The source's asserted results on their own, page by page (the DOM-derived web-document items come on top).
    const pagesWithAsserted = outcomes.filter((o) => o.page.results?.some((r) => r.from === 'asserted'));
    expect(pagesWithAsserted.length).toBeGreaterThan(0);
    for (const o of pagesWithAsserted) {
      const want = o.page.results?.filter((r) => r.from === 'asserted').length ?? 0;
      const missed = o.match?.missing.filter((m) => m.want.from === 'asserted').length ?? want;
      expect(want - missed, `${o.page.id}: asserted results found`).toBeGreaterThanOrEqual(
        Math.ceil(want * FOUND_TARGET),
      );
    }
  });

  it('ends every out-of-scope page in its failure kind, never an empty success or a false "no results"', () => {
    const wrong = outcomes.filter((o) => o.page.expect !== 'results' && !asExpected(o));
    expect(
      wrong.map((o) => `${o.page.id}: ${o.status} ${o.code ?? ''} ${o.kind ?? ''} (want ${o.page.expectedKind})`),
    ).toEqual([]);
  });
});

/**
 * SEARCH_C_SEARCH against real saved Bing result pages (test/fixtures/real/bing, PROVENANCE.md there).
 * A loopback server answers the adapter's `/search?q=…&first=…` with the recorded page for that
 * query and offset; the real adapter runs through the service over HTTP, and its results are
 * scored against the organic results the source project asserts (exact URL and title).
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

const DIR = new URL('../fixtures/real/bing/', import.meta.url);
const pages = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as CorpusSerp[];

const FOUND_TARGET = 0.95;

/** Bing's 1-based offset of a results page, as the adapter sends it (`first` is absent on page 1). */
const firstOf = (page: number) => (page - 1) * 10 + 1;
const keyOf = (query: string, first: number) => `${queryKey(query)}#${first}`;

describe('SEARCH_C_SEARCH on real saved Bing pages', () => {
  let run: SerpCorpusRun | undefined;
  let outcomes: SerpOutcome[] = [];

  beforeAll(async () => {
    run = await runSerpCorpus({
      taskType: 'SEARCH_C_SEARCH',
      dir: DIR,
      pages,
      keyOfPage: (p) => keyOf(p.query, firstOf(p.page)),
      keyOfRequest: (u) =>
        u.pathname === '/search'
          ? keyOf(u.searchParams.get('q') ?? '', Number(u.searchParams.get('first') ?? '1'))
          : undefined,
      payload: (p) => ({ query: p.query, page: p.page, country: 'US' }),
      parallel: 8,
    });
    outcomes = run.outcomes;
    reportSerpCorpus('SEARCH_C_SEARCH real-page corpus (Bing)', outcomes);
  }, 600_000);

  afterAll(async () => {
    await run?.stop();
  });

  it('holds the corpus: real pages with results, no-results, block and out-of-scope pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(60);
    expect(new Set(pages.map((p) => p.id)).size).toBe(pages.length);
    expect(new Set(pages.map((p) => keyOf(p.query, firstOf(p.page)))).size).toBe(pages.length);
    expect(
      pages.filter((p) => p.expect === 'results').reduce((n, p) => n + (p.results?.length ?? 0), 0),
    ).toBeGreaterThanOrEqual(250);
    expect(outcomes).toHaveLength(pages.length);
  });

  it('completes every page that holds results', () => {
    const failed = outcomes.filter((o) => o.page.expect === 'results' && o.status !== 'COMPLETED');
    expect(failed.map((o) => `${o.page.id}: ${o.code} ${o.kind}`)).toEqual([]);
  });

  it(`finds at least ${FOUND_TARGET * 100}% of the expected organic results with the exact URL and title`, () => {
    expect(foundShare(outcomes).share).toBeGreaterThanOrEqual(FOUND_TARGET);
    // The sources' own asserted values on their own, apart from the DOM-derived ones.
    expect(foundShare(outcomes, (o) => o.page.expectedFrom === 'asserted').share).toBeGreaterThanOrEqual(FOUND_TARGET);
  });

  it('ends every page that says "no results" in ENGINE_NO_RESULT (kind NO_ANSWER)', () => {
    const wrong = outcomes.filter(
      (o) => o.page.expect === 'no_answer' && !(asExpected(o) && o.code === 'ENGINE_NO_RESULT'),
    );
    expect(wrong.map((o) => `${o.page.id}: ${o.status} ${o.code ?? ''} ${o.kind ?? ''}`)).toEqual([]);
  });

  it('ends every block page and every out-of-scope page in its failure kind, never an empty success', () => {
    const wrong = outcomes.filter((o) => o.page.expect === 'failure' && !asExpected(o));
    expect(
      wrong.map((o) => `${o.page.id}: ${o.status} ${o.code ?? ''} ${o.kind ?? ''} (want ${o.page.expectedKind})`),
    ).toEqual([]);
  });
});

/**
 * SEARCH_C_SEARCH against real saved Bing result pages (test/fixtures/real/bing, PROVENANCE.md there).
 * A loopback server answers the adapter's `/search?q=…&first=…` with the recorded page for that
 * query and offset; the real adapter runs through the service over HTTP, and its results are
 * scored against the organic results the source project asserts (exact URL and title).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printTable, readCorpusFile, startReplayServer, type ReplayServer } from './harness.js';
import { failureKinds, matchResults, queryKey, type CorpusSerp, type Match, type ServedResult } from './serp-corpus.js';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';

const DIR = new URL('../fixtures/real/bing/', import.meta.url);
const pages = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as CorpusSerp[];

const PARALLEL = 8;
const FOUND_TARGET = 0.95;

interface Outcome {
  page: CorpusSerp;
  taskId: string;
  status: string;
  code?: string;
  kind?: string;
  served: number;
  match?: Match;
}

/** Bing's 1-based offset of a results page, as the adapter sends it (`first` is absent on page 1). */
const firstOf = (page: number) => (page - 1) * 10 + 1;
const keyOf = (query: string, first: number) => `${queryKey(query)}#${first}`;

describe('SEARCH_C_SEARCH on real saved Bing pages', () => {
  let svc: RunningService;
  let replay: ReplayServer;
  const outcomes: Outcome[] = [];
  const logLines: string[] = [];

  beforeAll(async () => {
    const byKey = new Map(pages.map((p) => [keyOf(p.query, firstOf(p.page)), p]));
    replay = await startReplayServer(({ url }) => {
      const u = new URL(url, 'http://replay');
      if (u.pathname !== '/search') return undefined;
      const page = byKey.get(keyOf(u.searchParams.get('q') ?? '', Number(u.searchParams.get('first') ?? '1')));
      if (!page) return undefined;
      return { headers: { 'content-type': page.contentType }, body: readCorpusFile(new URL(page.file, DIR)) };
    });
    const config = writeConfig(tempDir(), {
      scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 50, pollMs: 50 },
      // One attempt: a replayed page answers the same every time, so a retry only adds time.
      engines: { SEARCH_C_SEARCH: { concurrency: PARALLEL, timeoutMs: 30_000, maxAttempts: 1, upstream: { baseUrl: replay.url } } },
      exitAddresses: [{ id: 'direct', country: 'US', maxConcurrent: PARALLEL }],
    });
    svc = await startService({ AEQ_SANDBOX: '0', AEQ_CONFIG: config, AEQ_LOG_LEVEL: 'warn' }, { logLines });

    const queue = [...pages];
    const worker = async () => {
      for (let page = queue.shift(); page; page = queue.shift()) {
        const r = await runTask(svc, { taskType: 'SEARCH_C_SEARCH', payload: { query: page.query, page: page.page, country: 'US' } }, 60_000);
        const served = (r.response?.results ?? []) as ServedResult[];
        outcomes.push({
          page,
          taskId: r.task.id,
          status: r.task.status,
          ...(typeof r.error === 'string' ? { code: r.error.split(':', 1)[0] } : {}),
          served: served.length,
          ...(page.results ? { match: matchResults(page.results, served) } : {}),
        });
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    // The task error keeps only the code; the failure kind (NO_ANSWER, LAYOUT_CHANGED, …) is in the log.
    const kinds = failureKinds(logLines);
    for (const o of outcomes) if (o.status === 'FAILED') o.kind = kinds.get(o.taskId) ?? 'unlogged';
    outcomes.sort((a, b) => a.page.id.localeCompare(b.page.id));
    report(outcomes);
  }, 600_000);

  afterAll(async () => {
    await svc?.stop();
    await replay?.close();
  });

  it('holds the corpus: real pages with results, no-results, block and out-of-scope pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(60);
    expect(new Set(pages.map((p) => p.id)).size).toBe(pages.length);
    expect(new Set(pages.map((p) => keyOf(p.query, firstOf(p.page)))).size).toBe(pages.length);
    expect(pages.filter((p) => p.expect === 'results').reduce((n, p) => n + (p.results?.length ?? 0), 0)).toBeGreaterThanOrEqual(250);
    expect(outcomes).toHaveLength(pages.length);
  });

  it('completes every page that holds results', () => {
    const failed = outcomes.filter((o) => o.page.expect === 'results' && o.status !== 'COMPLETED').map((o) => `${o.page.id}: ${o.code} ${o.kind}`);
    expect(failed).toEqual([]);
  });

  it(`finds at least ${FOUND_TARGET * 100}% of the expected organic results with the exact URL and title`, () => {
    const scored = outcomes.filter((o) => o.match);
    const expected = scored.reduce((n, o) => n + (o.page.results?.length ?? 0), 0);
    const exact = scored.reduce((n, o) => n + (o.match?.exact ?? 0), 0);
    expect(exact / expected).toBeGreaterThanOrEqual(FOUND_TARGET);
    // The source's own asserted values, separately from the ones derived from the DOM.
    const asserted = scored.filter((o) => o.page.expectedFrom === 'asserted');
    const assertedExpected = asserted.reduce((n, o) => n + (o.page.results?.length ?? 0), 0);
    expect(asserted.reduce((n, o) => n + (o.match?.exact ?? 0), 0) / assertedExpected).toBeGreaterThanOrEqual(FOUND_TARGET);
  });

  it('ends every page that says "no results" in ENGINE_NO_RESULT (NO_ANSWER)', () => {
    const wrong = outcomes.filter((o) => o.page.expect === 'no_answer' && !(o.code === 'ENGINE_NO_RESULT' && o.kind === 'NO_ANSWER'));
    expect(wrong.map((o) => `${o.page.id}: ${o.status} ${o.code ?? ''} ${o.kind ?? ''}`)).toEqual([]);
  });

  it('ends every block page and every out-of-scope page in its failure kind, never an empty success', () => {
    const wrong = outcomes.filter((o) => o.page.expect === 'failure' && !(o.status === 'FAILED' && o.kind === o.page.expectedKind));
    expect(wrong.map((o) => `${o.page.id}: ${o.status} ${o.code ?? ''} ${o.kind ?? ''} (want ${o.page.expectedKind})`)).toEqual([]);
  });
});

function report(outcomes: Outcome[]): void {
  const row = (name: string, os: Outcome[]) => {
    const scored = os.filter((o) => o.match);
    const expected = scored.reduce((n, o) => n + (o.page.results?.length ?? 0), 0);
    const exact = scored.reduce((n, o) => n + (o.match?.exact ?? 0), 0);
    const asExpected = os.filter((o) => (o.page.expect === 'results' ? o.status === 'COMPLETED' : o.kind === o.page.expectedKind)).length;
    return {
      set: name,
      pages: os.length,
      'as expected': `${asExpected}/${os.length}`,
      'expected results': expected,
      'exact url+title': exact,
      'url only': scored.reduce((n, o) => n + (o.match?.urlOnly ?? 0), 0),
      found: expected ? exact / expected : 1,
    };
  };
  const sources = [...new Set(outcomes.map((o) => o.page.source))];
  printTable('SEARCH_C_SEARCH real-page corpus (Bing)', [
    ...sources.map((s) => row(`${s}: results`, outcomes.filter((o) => o.page.source === s && o.page.expect === 'results'))),
    row('no-results pages', outcomes.filter((o) => o.page.expect === 'no_answer')),
    row('block pages', outcomes.filter((o) => o.page.expect === 'failure' && !o.page.outOfScope)),
    row('out of scope', outcomes.filter((o) => o.page.outOfScope)),
    row('all', outcomes),
  ]);
  const off = outcomes.filter((o) => (o.match ? o.match.missing.length > 0 : false) || (o.page.expect !== 'results' ? o.kind !== o.page.expectedKind : o.status !== 'COMPLETED'));
  printTable(
    `Pages not as expected (${off.length})`,
    off.map((o) => ({
      id: o.page.id,
      expect: o.page.expect,
      status: o.code ? `${o.status} ${o.code} ${o.kind ?? ''}` : o.status,
      served: o.served,
      missing: o.match?.missing.length ?? 0,
      first: o.match?.missing[0] ? `${o.match.missing[0].want.url.slice(0, 60)} (got ${o.match.missing[0].gotTitle ?? 'no url'})` : '',
    })),
  );
}

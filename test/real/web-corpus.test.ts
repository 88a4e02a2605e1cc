/**
 * WEB_SCRAPE against real saved pages (test/fixtures/real/web, PROVENANCE.md there): every page is
 * replayed from a loopback server, read through the service over HTTP, and its `text` is scored
 * against the article text the source project asserts (bag-of-words F1).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bagOfWordsF1, printTable, startSavedPageServer, startWebScrapeService, type ReplayServer } from './harness.js';
import { runTask, type RunningService } from '../helpers/service.js';

interface CorpusPage {
  id: string;
  source: string;
  file: string;
  /** Charset the source reads the file with; sent in the Content-Type header. */
  charset: string;
  url: string;
  expectedText: string;
  expectedTitle?: string;
  provenance: Record<string, string>;
}

const DIR = new URL('../fixtures/real/web/', import.meta.url);
const pages = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as CorpusPage[];
/** Pages out of scope by the source's own definition of the expected text (reasons in PROVENANCE.md). */
const outOfScope = JSON.parse(fs.readFileSync(new URL('out-of-scope.json', DIR), 'utf8')) as Record<string, string>;

const PARALLEL = 8;
const F1_PASS = 0.9;
const SHARE_TARGET = 0.95;

interface Outcome {
  page: CorpusPage;
  status: string;
  code?: string;
  precision: number;
  recall: number;
  f1: number;
  titleOk?: boolean;
}

/**
 * `text` starts with the headline: the page title the service puts first when the content does
 * not start with it, or the content's own heading (the title without the site name the page adds).
 * Every source's expected text is the article body without the headline, so that one line is
 * left out of the score.
 */
function bodyText(text: string, title: string | undefined): string {
  const [first = '', ...rest] = text.split('\n');
  const [line, head] = [norm(first), norm(title ?? '')];
  const headline = line.length > 0 && (line === head || (line.length >= 10 && head.startsWith(line)));
  return headline ? rest.join('\n') : text;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

describe('WEB_SCRAPE on real saved pages', () => {
  let svc: RunningService;
  let replay: ReplayServer;
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    replay = await startSavedPageServer(pages, DIR);
    svc = await startWebScrapeService(PARALLEL);

    const queue = [...pages];
    const worker = async () => {
      for (let page = queue.shift(); page; page = queue.shift()) {
        const r = await runTask(svc, { taskType: 'WEB_SCRAPE', payload: { url: `${replay.url}/${page.id}` } }, 120_000);
        const text: string = r.response?.text ?? '';
        const score =
          r.task.status === 'COMPLETED'
            ? bagOfWordsF1(page.expectedText, bodyText(text, r.response?.title))
            : { precision: 0, recall: 0, f1: 0 };
        outcomes.push({
          page,
          status: r.task.status,
          code: typeof r.error === 'string' ? r.error : undefined,
          ...score,
          ...(page.expectedTitle ? { titleOk: norm(r.response?.title ?? '') === norm(page.expectedTitle) } : {}),
        });
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    outcomes.sort((a, b) => a.page.id.localeCompare(b.page.id));
    report(outcomes);
  }, 600_000);

  afterAll(async () => {
    await svc?.stop();
    await replay?.close();
  });

  it('holds a corpus of at least 130 real pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(130);
    expect(new Set(pages.map((p) => p.id)).size).toBe(pages.length);
    for (const id of Object.keys(outOfScope))
      expect(
        pages.some((p) => p.id === id),
        id,
      ).toBe(true);
  });

  it('completes every page', () => {
    const failed = outcomes
      .filter((o) => o.status !== 'COMPLETED')
      .map((o) => `${o.page.id}: ${o.status} ${o.code ?? ''}`);
    expect(failed).toEqual([]);
    expect(outcomes).toHaveLength(pages.length);
  });

  it(`reaches F1 >= ${F1_PASS} on at least ${SHARE_TARGET * 100}% of the in-scope pages`, () => {
    const inScope = outcomes.filter((o) => !outOfScope[o.page.id]);
    const passing = inScope.filter((o) => o.f1 >= F1_PASS).length;
    expect(passing / inScope.length).toBeGreaterThanOrEqual(SHARE_TARGET);
  });
});

function report(outcomes: Outcome[]): void {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const row = (name: string, os: Outcome[]) => {
    const titled = os.filter((o) => o.titleOk !== undefined);
    return {
      source: name,
      pages: os.length,
      completed: os.filter((o) => o.status === 'COMPLETED').length,
      precision: mean(os.map((o) => o.precision)),
      recall: mean(os.map((o) => o.recall)),
      f1: mean(os.map((o) => o.f1)),
      'f1>=0.9': mean(os.map((o) => (o.f1 >= F1_PASS ? 1 : 0))),
      titles: titled.length ? `${titled.filter((o) => o.titleOk).length}/${titled.length}` : '',
    };
  };
  const inScope = outcomes.filter((o) => !outOfScope[o.page.id]);
  const sources = [...new Set(outcomes.map((o) => o.page.source))];
  printTable('WEB_SCRAPE real-page corpus (in scope)', [
    ...sources.map((s) =>
      row(
        s,
        inScope.filter((o) => o.page.source === s),
      ),
    ),
    row('all', inScope),
    row(
      'out of scope',
      outcomes.filter((o) => outOfScope[o.page.id]),
    ),
  ]);
  const low = outcomes.filter((o) => o.f1 < F1_PASS);
  printTable(
    `Pages under F1 ${F1_PASS} (${low.length})`,
    low.map((o) => ({
      id: o.page.id,
      status: o.code ? `${o.status} ${o.code}` : o.status,
      precision: o.precision,
      recall: o.recall,
      f1: o.f1,
      scope: outOfScope[o.page.id] ? 'out' : 'in',
      url: o.page.url.slice(0, 70),
    })),
  );
}

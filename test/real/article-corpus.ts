/**
 * Reads a corpus of real article pages with expected article text through the service (WEB_SCRAPE over HTTP, each
 * page replayed from a loopback server) and scores each page twice from the same read: aeq's `text`, and
 * Readability's own text of the article (`rawResponse.readabilityText`), both by bag-of-words F1. The blocks the
 * cleanup rules removed (`rawResponse.removed`) are classified as article text or boilerplate by the expected text
 * (bench/reader/drop-trace-core.ts).
 */
import { classifyRemoved, withoutHeadline, type RemovedBlock } from '../../bench/reader/drop-trace-core.js';
import type { ReaderRule } from '../../src/engines/web/main-content.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runTask, type RunningService } from '../helpers/service.js';
import { bagOfWordsF1, printTable, startSavedPageServer, startWebScrapeService, type ReplayServer } from './harness.js';

export interface ArticlePage {
  id: string;
  file: string;
  charset: string;
  url: string;
  expectedText: string;
  expectedTitle?: string;
}

export interface Score {
  precision: number;
  recall: number;
  f1: number;
}

export interface ArticleOutcome<P extends ArticlePage = ArticlePage> {
  page: P;
  status: string;
  code?: string;
  /** aeq's `text` (without the headline line) against the expected text. */
  aeq: Score;
  /** Readability's own text of the same read against the expected text. */
  readability: Score;
  removed: RemovedBlock[];
  title: string;
}

const NONE: Score = { precision: 0, recall: 0, f1: 0 };

interface RawReader {
  readabilityText?: string | null;
  removed?: Array<{ rule: ReaderRule; tag: string; text: string }>;
}

/** Pages read at once, and the service's concurrency for them. */
const PARALLEL = 8;

/**
 * A held-out corpus's read, registered in the calling `describe`: before its tests, the pages are replayed from `dir`
 * and read once through a WEB_SCRAPE service, and the table is printed (`name`, pages at F1 >= `pass`); after them,
 * both servers stop. The returned array holds the outcomes once the tests run.
 */
export function readCorpusOnce<P extends ArticlePage>(
  name: string,
  pages: readonly P[],
  dir: URL,
  pass: number,
): Array<ArticleOutcome<P>> {
  const outcomes: Array<ArticleOutcome<P>> = [];
  let svc: RunningService | undefined;
  let replay: ReplayServer | undefined;
  beforeAll(async () => {
    replay = await startSavedPageServer(pages, dir);
    svc = await startWebScrapeService(PARALLEL);
    outcomes.push(...(await readArticles(svc, replay.url, pages, PARALLEL)));
    reportArticles(name, outcomes, pass);
  }, 600_000);
  afterAll(async () => {
    await svc?.stop();
    await replay?.close();
  });
  return outcomes;
}

/** Reads every page, `parallel` at a time, from `replayUrl/<id>`. */
export async function readArticles<P extends ArticlePage>(
  svc: RunningService,
  replayUrl: string,
  pages: readonly P[],
  parallel: number,
): Promise<Array<ArticleOutcome<P>>> {
  const out: Array<ArticleOutcome<P>> = [];
  const queue = [...pages];
  const worker = async () => {
    for (let page = queue.shift(); page; page = queue.shift()) {
      const r = await runTask(
        svc,
        { taskType: 'WEB_SCRAPE', payload: { url: `${replayUrl}/${page.id}`, include: { rawResponse: true } } },
        120_000,
      );
      const done = r.task.status === 'COMPLETED';
      const raw = (r.response?.rawResponse ?? {}) as RawReader;
      const title: string = r.response?.title ?? '';
      out.push({
        page,
        status: r.task.status,
        code: typeof r.error === 'string' ? r.error : undefined,
        aeq: done ? bagOfWordsF1(page.expectedText, withoutHeadline(r.response?.text ?? '', title)) : NONE,
        readability: done ? bagOfWordsF1(page.expectedText, raw.readabilityText ?? '') : NONE,
        removed: done ? classifyRemoved(raw.removed ?? [], page.expectedText) : [],
        title,
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return out.sort((a, b) => a.page.id.localeCompare(b.page.id));
}

export const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Per cleanup rule: pages and words it removed, and how much of that was article text. */
export interface RuleFigures {
  rule: ReaderRule;
  pages: number;
  blocks: number;
  words: number;
  articleBlocks: number;
  articleWords: number;
  /** Pages where the rule removed article text, with the first such block's text. */
  articlePages: Array<{ id: string; text: string }>;
}

export function ruleFigures(outcomes: readonly ArticleOutcome[]): RuleFigures[] {
  const by = new Map<ReaderRule, RuleFigures>();
  for (const o of outcomes) {
    const onPage = new Set<ReaderRule>();
    for (const b of o.removed) {
      const f = by.get(b.rule) ?? {
        rule: b.rule,
        pages: 0,
        blocks: 0,
        words: 0,
        articleBlocks: 0,
        articleWords: 0,
        articlePages: [],
      };
      by.set(b.rule, f);
      if (!onPage.has(b.rule)) f.pages++;
      onPage.add(b.rule);
      f.blocks++;
      f.words += b.words;
      if (!b.articleText) continue;
      f.articleBlocks++;
      f.articleWords += b.words;
      if (!f.articlePages.some((p) => p.id === o.page.id)) f.articlePages.push({ id: o.page.id, text: b.text });
    }
  }
  return [...by.values()].sort((a, b) => b.words - a.words);
}

/** Prints the summary (aeq beside Readability alone), the rule table, and the pages under `pass`. */
export function reportArticles(name: string, outcomes: readonly ArticleOutcome[], pass: number): void {
  const side = (label: string, pick: (o: ArticleOutcome) => Score) => ({
    reader: label,
    pages: outcomes.length,
    completed: outcomes.filter((o) => o.status === 'COMPLETED').length,
    precision: mean(outcomes.map((o) => pick(o).precision)),
    recall: mean(outcomes.map((o) => pick(o).recall)),
    f1: mean(outcomes.map((o) => pick(o).f1)),
    [`f1>=${pass}`]: mean(outcomes.map((o) => (pick(o).f1 >= pass ? 1 : 0))),
  });
  printTable(`${name}: aeq beside Readability alone (the same read)`, [
    side('aeq', (o) => o.aeq),
    side('Readability alone', (o) => o.readability),
  ]);
  printTable(
    `${name}: what the cleanup rules removed from Readability's article`,
    ruleFigures(outcomes).map((f) => ({
      rule: f.rule,
      pages: f.pages,
      blocks: f.blocks,
      words: f.words,
      'article blocks': f.articleBlocks,
      'article words': f.articleWords,
      'pages with article text': f.articlePages.map((p) => p.id).join(' '),
    })),
  );
  const low = outcomes.filter((o) => o.aeq.f1 < pass);
  printTable(
    `${name}: pages under F1 ${pass} (${low.length})`,
    low.map((o) => ({
      id: o.page.id,
      status: o.code ? `${o.status} ${o.code}` : o.status,
      precision: o.aeq.precision,
      recall: o.aeq.recall,
      f1: o.aeq.f1,
      'readability f1': o.readability.f1,
      url: o.page.url.slice(0, 70),
    })),
  );
}

/**
 * The two checks of a held-out corpus: at least `floor` of its pages reach `f1Pass` (the title says the share
 * measured when the floor was set, against the 95% target), and aeq's mean F1 is at or above Readability's alone.
 */
export function heldOutChecks(
  outcomes: readonly ArticleOutcome[],
  o: { f1Pass: number; floor: number; measured: string },
): void {
  const passTitle = `reaches F1 >= ${o.f1Pass} on at least ${(o.floor * 100).toFixed(1)}% of the pages`;
  it(`${passTitle} (measured: ${o.measured}; target 95%, not met)`, () => {
    expect(mean(outcomes.map((x) => (x.aeq.f1 >= o.f1Pass ? 1 : 0)))).toBeGreaterThanOrEqual(o.floor);
  });

  it("reads as much of the articles as Readability alone: a mean F1 at or above Readability's", () => {
    const aeq = mean(outcomes.map((x) => x.aeq.f1));
    const readability = mean(outcomes.map((x) => x.readability.f1));
    expect(aeq).toBeGreaterThanOrEqual(readability);
  });
}

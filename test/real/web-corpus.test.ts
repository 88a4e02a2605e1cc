/**
 * WEB_SCRAPE against real saved pages (test/fixtures/real/web, PROVENANCE.md there): every page is
 * replayed from a loopback server, read through the service over HTTP, and its `text` is scored
 * against the article text the source project asserts (bag-of-words F1).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printTable, startSavedPageServer, startWebScrapeService, type ReplayServer } from './harness.js';
import {
  mean,
  readArticles,
  reportArticles,
  ruleFigures,
  type ArticleOutcome,
  type ArticlePage,
} from './article-corpus.js';
import type { ArticleRule } from '../../src/engines/web/boilerplate.js';
import type { RunningService } from '../helpers/service.js';

interface CorpusPage extends ArticlePage {
  source: string;
  provenance: Record<string, string>;
}

const DIR = new URL('../fixtures/real/web/', import.meta.url);
const pages = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as CorpusPage[];
/** Pages out of scope by the source's own definition of the expected text (reasons in PROVENANCE.md). */
const outOfScope = JSON.parse(fs.readFileSync(new URL('out-of-scope.json', DIR), 'utf8')) as Record<string, string>;

const PARALLEL = 8;
const F1_PASS = 0.9;
const SHARE_TARGET = 0.95;
/**
 * The bar a cleanup rule is kept by: at most a fifth of the words it removes from Readability's article may be text
 * the corpus annotates as article. The rest of what such a rule takes is captions and credits that some annotators
 * keep, which a rule cannot tell from furniture (docs/engines.md#cleanup-rules).
 */
const MAX_ARTICLE_SHARE = 0.2;

/**
 * Each kept rule, with a real page where it removes boilerplate (a block of that text, not in the expected text). No
 * page of this corpus has a form in Readability's article: the `form` rule's page is in web-articles-2026's test.
 */
const RULE_EXAMPLES: Record<Exclude<ArticleRule, 'form'>, { page: string; text: RegExp }> = {
  'teaser-article': { page: 'zyte-680c2848e94a', text: /^'A NATIONAL TRAGEDY' Watching This Koala/ },
  navigation: { page: 'zyte-05844573ca7e', text: /^Home News Sports UConn Nation/ },
  figcaption: { page: 'zyte-04a6711caa7c', text: /^Credit\.\.\.Doug Mills\/The New York Times$/ },
  'gallery-caption': { page: 'zyte-05844573ca7e', text: /^Photo: Damian Dovarganes, AP/ },
  'furniture-class': { page: 'zyte-20b2b64916b0', text: /^Skip to content$/ },
  'links-heading': { page: 'zyte-5caf91b8a442', text: /^LATEST NEWS$/ },
  'ui-label': { page: 'zyte-2f42ef1d3ea0', text: /^SUBSCRIBE$/ },
  dateline: { page: 'zyte-076f4f33bf75', text: /^First Published: Tuesday, November 19, 2019 08:38 AM$/ },
  'cookie-notice': { page: 'zyte-30b771a40a4e', text: /^This website uses cookies/ },
  'duplicate-paragraph': { page: 'newspaper-teenvogue.com1', text: /^As you may remember from High School Musical/ },
  'author-card': { page: 'zyte-4219d096902d', text: /^Regan Regan is a Southeastern Connecticut native/ },
};

type Outcome = ArticleOutcome<CorpusPage>;

describe('WEB_SCRAPE on real saved pages', () => {
  let svc: RunningService;
  let replay: ReplayServer;
  let outcomes: Outcome[] = [];

  beforeAll(async () => {
    replay = await startSavedPageServer(pages, DIR);
    svc = await startWebScrapeService(PARALLEL);
    outcomes = await readArticles(svc, replay.url, pages, PARALLEL);
    report(outcomes);
    reportArticles('web (in scope)', inScope(outcomes), F1_PASS);
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
    const scoped = inScope(outcomes);
    const passing = scoped.filter((o) => o.aeq.f1 >= F1_PASS).length;
    expect(passing / scoped.length).toBeGreaterThanOrEqual(SHARE_TARGET);
  });

  it("reads as much of the articles as Readability alone: a mean F1 at or above Readability's", () => {
    const scoped = inScope(outcomes);
    expect(mean(scoped.map((o) => o.aeq.f1))).toBeGreaterThanOrEqual(mean(scoped.map((o) => o.readability.f1)));
  });

  it(`keeps only rules of which at most ${MAX_ARTICLE_SHARE * 100}% of the removed words are article text`, () => {
    const over = ruleFigures(outcomes)
      .filter((f) => f.articleWords > f.words * MAX_ARTICLE_SHARE)
      .map((f) => `${f.rule}: ${f.articleWords} of ${f.words} words`);
    expect(over).toEqual([]);
  });

  it('leaves the link-block, copyright and bare-address rules to the fallback path', () => {
    const onArticles = new Set(ruleFigures(outcomes).map((f) => f.rule));
    for (const rule of ['link-block', 'copyright', 'bare-address'] as const)
      expect(onArticles.has(rule), rule).toBe(false);
  });

  it.each(Object.entries(RULE_EXAMPLES))('%s removes boilerplate on a real page', (rule, example) => {
    const o = outcomes.find((x) => x.page.id === example.page);
    const hit = o?.removed.find((b) => b.rule === rule && example.text.test(b.text));
    expect(hit, `${rule} on ${example.page}`).toBeDefined();
    expect(hit?.articleText).toBe(false);
  });
});

function inScope(os: readonly Outcome[]): Outcome[] {
  return os.filter((o) => !outOfScope[o.page.id]);
}

/** Titles are compared (case and whitespace folded) only where the source asserts one. */
function titleOk(o: Outcome): boolean {
  return norm(o.title) === norm(o.page.expectedTitle ?? '');
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

function report(outcomes: Outcome[]): void {
  const row = (name: string, os: Outcome[]) => {
    const titled = os.filter((o) => o.page.expectedTitle !== undefined);
    return {
      source: name,
      pages: os.length,
      completed: os.filter((o) => o.status === 'COMPLETED').length,
      precision: mean(os.map((o) => o.aeq.precision)),
      recall: mean(os.map((o) => o.aeq.recall)),
      f1: mean(os.map((o) => o.aeq.f1)),
      'f1>=0.9': mean(os.map((o) => (o.aeq.f1 >= F1_PASS ? 1 : 0))),
      titles: titled.length ? `${titled.filter(titleOk).length}/${titled.length}` : '',
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
}

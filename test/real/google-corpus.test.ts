/**
 * SEARCH_A, SEARCH_A_SERP and AIMODE against real saved Google pages (test/fixtures/real/google,
 * PROVENANCE.md there): a loopback server answers `/search?q=…` with the page recorded for that
 * query, each task runs through the service with the engines' `transport: "http"` (so the recorded
 * HTML is parsed as it is), and the output is scored against the expected values: organic results
 * by exact URL and title, the AI Overview / AI Mode answer by bag-of-words F1 of its visible text and
 * by its cited sources in order with their card titles, and `aioverview: null` where there is none; the shopping
 * cards, sponsored units and local pack field by field at their positions, `[]` or null where the page says so.
 * Pages that say the query matched nothing must end ENGINE_NO_RESULT; a bare consent interstitial
 * CONSENT_REQUIRED; a consent dialog beside results must not stop the parse and is noted in raw.walls.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bagOfWordsF1, printTable, readCorpusFile, startReplayServer, type ReplayServer } from './harness.js';
import { runTask, startService, tempDir, writeConfig, type RunningService } from '../helpers/service.js';
import { failureKinds } from './serp-corpus.js';
import * as cheerio from 'cheerio';
import { parseResultsPage } from '../../src/engines/search-a/results-page.js';
import { googleServedLocale } from '../../src/engines/search-a/served-locale.js';

type Engine = 'SEARCH_A' | 'SEARCH_A_SERP' | 'AIMODE';

interface ExpectedAnswer {
  text: string;
  paragraphs: number;
  headings: number;
  listItems: number;
  sources: Array<{ url: string; label: string }>;
}

interface CorpusPage {
  id: string;
  source: string;
  file: string;
  /** Query the test submits; the replay server answers it with this page. */
  query: string;
  engines: Engine[];
  /**
   * `results` (the default): the task completes; `no_results`: the page says nothing matched (ENGINE_NO_RESULT);
   * `consent_required`: a bare consent interstitial (kind CONSENT_REQUIRED).
   */
  expect?: 'results' | 'no_results' | 'consent_required';
  /** Wall markers the parser must note in raw.walls on a page that still holds its results. */
  walls?: string[];
  organic: Array<{ url: string; title: string }>;
  /** null: the page has no AI Overview and SEARCH_A must say so. */
  aioverview: ExpectedAnswer | null;
  aimode?: ExpectedAnswer;
  /**
   * The page's shopping cards, sponsored units and local pack as a person reads them, in page order; a kind is null
   * where the page's layout is one whose cards are not read (docs/engines.md#google-page-cards).
   */
  cards?: ExpectedCards;
  provenance: Record<string, unknown>;
}

interface ExpectedCards {
  products: Array<Record<ProductField, string | number | null>> | null;
  ads: Array<Record<AdField, string | null>> | null;
  places: Array<Record<PlaceField, string | number | null>> | null;
}
type ProductField = 'title' | 'url' | 'price' | 'currency' | 'merchant' | 'rating';
type AdField = 'title' | 'url';
type PlaceField = 'name' | 'url' | 'address' | 'rating';
type CardKind = keyof ExpectedCards;
const CARD_FIELDS: Record<CardKind, readonly string[]> = {
  products: ['title', 'url', 'price', 'currency', 'merchant', 'rating'],
  ads: ['title', 'url'],
  places: ['name', 'url', 'address', 'rating'],
};
/** Share of expected cards whose field the service returns the same, per field and kind. */
const CARD_FIELD_TARGET = 0.9;

interface Served {
  text?: string;
  sources?: Array<{ position: number; url: string; label: string }>;
  organic?: Array<{ url: string; title: string }>;
  aioverview?: { text: string; sources: Array<{ position: number; url: string; label: string }> } | null;
  region?: { requested: string | null; exit: string; engine: { country: string | null } | null };
  products?: Array<Record<string, unknown>> | null;
  ads?: Array<Record<string, unknown>> | null;
  places?: Array<Record<string, unknown>> | null;
}

const DIR = new URL('../fixtures/real/google/', import.meta.url);

/** The region of the page's `lang` (`ja-US` → US), or null: read here with a plain pattern, not the service's code. */
function langRegion(file: string): string | null {
  const head = readCorpusFile(new URL(file, DIR)).toString('utf8').slice(0, 4000);
  return /<html[^>]*\slang="[a-z]{2,3}-([A-Z]{2})"/.exec(head)?.[1] ?? null;
}

/**
 * The country each page's footer names ("Germany", "Sverige", "ドイツ", "الإمارات العربية المتحدة"…), read by hand;
 * every other page's footer line is filled by script, and it says its region only in its `lang` (`ja-US`), if at all.
 */
const SERVED_COUNTRY: Record<string, string> = {
  'aql/google-9-11-revisited-1618106149.html.gz': 'DE',
  'aql/google-agust-1614235489.html.gz': 'NL',
  'aql/google-chi-zhen-nzhong-rong-keteru-1608917828.html.gz': 'DE',
  'aql/google-cortisol-test-1623205666.html.gz': 'DE',
  'aql/google-coxsackie-virus-1617107799.html.gz': 'NL',
  'aql/google-dead-cock-mortuary-1614203203.html.gz': 'GB',
  'aql/google-dove-soap-1617107771.html.gz': 'DE',
  'aql/google-gnosticism-1615175612.html.gz': 'AE',
  'aql/google-homemade-l-1617107839.html.gz': 'DE',
  'aql/google-lenin-1614385592.html.gz': 'DE',
  'aql/google-why-is-one-foot-slightly-larger-than-the-other-one-1605140430.html.gz': 'SA',
  'deepresearch/google_serp.html.gz': 'BR',
  'aql/google-dario-1615125313.html.gz': 'DE',
  'sescraper/google6.html.gz': 'DE',
  // 2022 layout: "United States - From your IP address".
  'aql/google-modern-times-chaplin-watch-online-1662343522.html.gz': 'US',
};
const pages = JSON.parse(fs.readFileSync(new URL('expected.json', DIR), 'utf8')) as CorpusPage[];

const PARALLEL = 8;
/** Share of expected organic results the service must return with exact URL and title. */
const ORGANIC_TARGET = 0.95;
/** Bag-of-words F1 of an answer's visible text against the expected text. */
const F1_TARGET = 0.9;
/** Share of expected citations whose label is the card title. */
const LABEL_TARGET = 0.9;
/**
 * Google's own sites (google.com, google.co.uk, books.google.com, blog.google): pages that rank like any
 * other, never the search application's navigation (docs/engines.md#google-organic-results).
 */
const GOOGLE_SITE = /(^|\.)google(\.com?)?(\.[a-z]{2,3})?$/i;
const onGoogleSite = (url: string) => GOOGLE_SITE.test(new URL(url).hostname);

/** Text that is never part of an answer: People also ask, the hidden fallback lines, feedback chrome. */
const NEVER_IN_ANSWER = new RegExp(
  [
    'People also ask',
    'not available for this search',
    'generate an AI overview right now',
    'AI can make mistakes',
    'Show more',
    'Good response',
  ].join('|'),
  'i',
);

interface Run {
  page: CorpusPage;
  engine: Engine;
  status: string;
  error?: string;
  /** Failure kind the adapter logged (FAILED tasks). */
  kind?: string;
  served: Served;
}

const expectOf = (p: CorpusPage) => p.expect ?? 'results';
const withResults = (r: Run) => expectOf(r.page) === 'results';

/** Whether a run ended as its page says: completed, ENGINE_NO_RESULT, or a CONSENT_REQUIRED failure. */
function endedAsExpected(r: Run): boolean {
  switch (expectOf(r.page)) {
    case 'results':
      return r.status === 'COMPLETED';
    case 'no_results':
      return r.status === 'FAILED' && r.error?.split(':', 1)[0] === 'ENGINE_NO_RESULT';
    case 'consent_required':
      return r.status === 'FAILED' && r.kind === 'CONSENT_REQUIRED';
  }
}

interface AnswerScore {
  f1: number;
  precision: number;
  recall: number;
  sourcesInOrder: boolean;
  labelsOk: number;
  leaked: boolean;
}

const canonical = (u: string) => {
  try {
    return new URL(u).toString();
  } catch {
    return u;
  }
};
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

function organicFound(expected: CorpusPage['organic'], served: Served['organic'] = []): number {
  const got = new Set(served.map((o) => `${canonical(o.url)}\n${squash(o.title)}`));
  return expected.filter((e) => got.has(`${canonical(e.url)}\n${squash(e.title)}`)).length;
}

/** A card field as compared: URLs in WHATWG form, text with whitespace folded, numbers and null as they are. */
function cardValue(field: string, v: unknown): unknown {
  if (typeof v !== 'string') return v ?? null;
  return field === 'url' ? canonical(v) : squash(v);
}

interface CardScore {
  page: string;
  engine: Engine;
  kind: CardKind;
  expected: number | null;
  served: number | null;
  /** Per field: expected cards whose field the service returns the same, at the same position. */
  fields: Record<string, number>;
}

function scoreCards(r: Run): CardScore[] {
  const want = r.page.cards;
  if (!want) return [];
  return (Object.keys(CARD_FIELDS) as CardKind[]).map((kind) => {
    const exp = want[kind] as Array<Record<string, unknown>> | null;
    const got = r.served[kind] ?? null;
    const fields: Record<string, number> = {};
    for (const f of CARD_FIELDS[kind]) {
      fields[f] = (exp ?? []).filter(
        (e, i) => got !== null && got[i] !== undefined && cardValue(f, got[i]?.[f]) === cardValue(f, e[f]),
      ).length;
    }
    return {
      page: r.page.id,
      engine: r.engine,
      kind,
      expected: exp === null ? null : exp.length,
      served: got === null ? null : got.length,
      fields,
    };
  });
}

function scoreAnswer(expected: ExpectedAnswer, text: string, sources: Served['sources'] = []): AnswerScore {
  const { f1, precision, recall } = bagOfWordsF1(expected.text, text);
  const urls = sources.map((s) => canonical(s.url));
  const sourcesInOrder =
    urls.length === expected.sources.length && expected.sources.every((s, i) => canonical(s.url) === urls[i]);
  const labelByUrl = new Map(sources.map((s) => [canonical(s.url), squash(s.label)]));
  const labelled = expected.sources.filter((s) => labelByUrl.get(canonical(s.url)) === squash(s.label)).length;
  return {
    f1,
    precision,
    recall,
    sourcesInOrder,
    labelsOk: expected.sources.length ? labelled / expected.sources.length : 1,
    leaked: NEVER_IN_ANSWER.test(text),
  };
}

describe('Google engines on real saved result pages', () => {
  let replay: ReplayServer;
  let svc: RunningService;
  const runs: Array<Run & { taskId: string }> = [];

  beforeAll(async () => {
    const byQuery = new Map(pages.map((p) => [p.query, p]));
    replay = await startReplayServer(({ url }) => {
      const u = new URL(url, 'http://replay');
      if (u.pathname !== '/search') return undefined;
      const page = byQuery.get(u.searchParams.get('q') ?? '');
      if (!page || (u.searchParams.get('udm') === '50') !== page.engines.includes('AIMODE')) return undefined;
      return { headers: { 'content-type': 'text/html; charset=UTF-8' }, body: readCorpusFile(new URL(page.file, DIR)) };
    });
    const engine = { transport: 'http', concurrency: PARALLEL, timeoutMs: 30_000, upstream: { baseUrl: replay.url } };
    const config = writeConfig(tempDir(), {
      scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 100, pollMs: 50 },
      engines: { SEARCH_A: engine, SEARCH_A_SERP: engine, AIMODE: engine },
      exitAddresses: [{ id: 'direct', country: 'US', maxConcurrent: PARALLEL }],
    });
    const logLines: string[] = [];
    svc = await startService({ AEQ_SANDBOX: '0', AEQ_CONFIG: config }, { logLines });

    const queue = pages.flatMap((page) => page.engines.map((engine) => ({ page, engine })));
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const r = await runTask(
          svc,
          { taskType: job.engine, payload: { query: job.page.query, country: 'US' } },
          60_000,
        );
        runs.push({
          page: job.page,
          engine: job.engine,
          status: r.task.status,
          error: typeof r.error === 'string' ? r.error : undefined,
          served: r.response ?? {},
          taskId: r.task.id as string,
        });
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    const kinds = failureKinds(logLines);
    for (const r of runs) if (r.status === 'FAILED') r.kind = kinds.get(r.taskId) ?? 'unlogged';
    runs.sort((a, b) => a.page.id.localeCompare(b.page.id) || a.engine.localeCompare(b.engine));
    report(runs);
  }, 600_000);

  afterAll(async () => {
    await svc?.stop();
    await replay?.close();
  });

  it('holds real pages with and without an AI Overview, organic-only pages and an AI Mode page', () => {
    expect(pages.length).toBeGreaterThanOrEqual(50);
    expect(new Set(pages.map((p) => p.query)).size).toBe(pages.length);
    expect(pages.filter((p) => p.aioverview).length).toBeGreaterThanOrEqual(5);
    expect(pages.filter((p) => p.engines.includes('SEARCH_A') && p.aioverview === null).length).toBeGreaterThanOrEqual(
      10,
    );
    expect(pages.filter((p) => p.aimode).length).toBeGreaterThanOrEqual(1);
    expect(pages.filter((p) => p.expect === 'no_results').length).toBeGreaterThanOrEqual(10);
    expect(
      pages.filter((p) => expectOf(p) === 'results' && p.walls?.includes('consent_dialog')).length,
    ).toBeGreaterThanOrEqual(3);
    expect(
      pages
        .filter((p) => p.expect !== undefined && p.expect !== 'results')
        .every((p) => p.organic.length === 0 && p.aioverview === null),
    ).toBe(true);
  });

  it('completes every task on a page with results, and ends every other one in its code', () => {
    expect(
      runs
        .filter((r) => !endedAsExpected(r))
        .map(
          (r) => `${r.page.id} ${r.engine}: ${r.status} ${r.error ?? ''} ${r.kind ?? ''} (want ${expectOf(r.page)})`,
        ),
    ).toEqual([]);
  });

  it(
    'notes the consent dialog beside real results in raw.walls, ' +
      'nothing where there is none, and still returns the results',
    () => {
      const walled = pages.filter((p) => p.walls);
      expect(walled.filter((p) => p.walls?.length).length).toBeGreaterThan(0);
      expect(walled.filter((p) => p.walls?.length === 0).length).toBeGreaterThan(0);
      for (const p of walled) {
        const html = readCorpusFile(new URL(p.file, DIR)).toString('utf8');
        const parsed = parseResultsPage(
          { html, status: 200, finalUrl: `https://www.google.com/search?q=${encodeURIComponent(p.query)}` },
          { page: 1, readAio: true },
        );
        expect(parsed.diagnostics.walls, p.id).toEqual(p.walls);
        expect(parsed.organic.length, p.id).toBeGreaterThan(0);
      }
    },
  );

  it(`finds at least ${ORGANIC_TARGET * 100}% of the expected organic results with exact URL and title`, () => {
    for (const engine of ['SEARCH_A', 'SEARCH_A_SERP'] as const) {
      const mine = runs.filter((r) => r.engine === engine && withResults(r));
      const expected = mine.reduce((n, r) => n + r.page.organic.length, 0);
      const found = mine.reduce((n, r) => n + organicFound(r.page.organic, r.served.organic), 0);
      expect(found / expected, engine).toBeGreaterThanOrEqual(ORGANIC_TARGET);
    }
  });

  it("returns every expected result on Google's own sites, www.google.com included, with its title", () => {
    const expected = pages
      .filter((p) => expectOf(p) === 'results')
      .flatMap((p) => p.organic.filter((o) => onGoogleSite(o.url)));
    expect(expected.some((o) => new URL(o.url).hostname === 'www.google.com')).toBe(true);
    for (const engine of ['SEARCH_A', 'SEARCH_A_SERP'] as const) {
      const missing = runs
        .filter((r) => r.engine === engine && withResults(r))
        .flatMap((r) =>
          r.page.organic
            .filter((o) => onGoogleSite(o.url) && organicFound([o], r.served.organic) === 0)
            .map((o) => `${r.page.id}: ${o.url}`),
        );
      expect(missing, engine).toEqual([]);
    }
  });

  it("says where Google served each page for, from the page's own footer and lang (region.engine)", () => {
    const completed = runs.filter((x) => x.status === 'COMPLETED');
    const wrong = completed.flatMap((r) => {
      const region = r.served.region;
      const want = SERVED_COUNTRY[r.page.file] ?? langRegion(r.page.file);
      const got = region?.engine?.country ?? null;
      return region?.requested === 'US' && region.exit === 'US' && got === want
        ? []
        : [`${r.page.id} ${r.engine}: ${JSON.stringify(region)} (want ${want})`];
    });
    expect(wrong).toEqual([]);
    expect(new Set(completed.filter((r) => SERVED_COUNTRY[r.page.file]).map((r) => r.page.file)).size).toBe(
      Object.keys(SERVED_COUNTRY).length,
    );
    // A page that says only the name ("Sverige", `lang="sv"`): it has no results, so it is read here directly.
    const sverige = cheerio.load(readCorpusFile(new URL('aql/google-strarray-i-1622446334.html.gz', DIR)));
    expect(googleServedLocale(sverige)).toEqual({ country: 'SE', language: 'sv', signal: 'google footer, html lang' });
  });

  it('reports aioverview: null on every page without an overview (People also ask is no overview)', () => {
    const wrong = runs
      .filter(
        (r) => r.engine === 'SEARCH_A' && withResults(r) && r.page.aioverview === null && r.served.aioverview !== null,
      )
      .map((r) => r.page.id);
    expect(wrong).toEqual([]);
  });

  it(
    'reads shopping cards, sponsored units and local packs: the same count, ' +
      `each field >= ${CARD_FIELD_TARGET * 100}% ` +
      'at its position, and null where the layout is not read',
    () => {
      const scores = runs.filter((r) => r.status === 'COMPLETED').flatMap(scoreCards);
      const pagesWith = (kind: CardKind) =>
        new Set(scores.filter((s) => s.kind === kind && (s.expected ?? 0) > 0).map((s) => s.page)).size;
      expect(pagesWith('products')).toBeGreaterThanOrEqual(4);
      expect(pagesWith('ads')).toBeGreaterThanOrEqual(5);
      expect(pagesWith('places')).toBeGreaterThanOrEqual(4);
      expect(scores.some((s) => s.expected === 0)).toBe(true);
      expect(scores.some((s) => s.expected === null)).toBe(true);
      expect(scores.filter((s) => s.expected !== s.served).map((s) => `${s.page} ${s.engine} ${s.kind}`)).toEqual([]);
      for (const kind of Object.keys(CARD_FIELDS) as CardKind[]) {
        const mine = scores.filter((s) => s.kind === kind);
        const total = mine.reduce((n, s) => n + (s.expected ?? 0), 0);
        for (const f of CARD_FIELDS[kind]) {
          const same = mine.reduce((n, s) => n + (s.fields[f] ?? 0), 0);
          expect(same / total, `${kind}.${f}`).toBeGreaterThanOrEqual(CARD_FIELD_TARGET);
        }
      }
    },
  );

  it(
    `reads each AI Overview: visible text F1 >= ${F1_TARGET}, ` +
      `nothing from People also ask or the hidden lines, cited sources in order with their card titles`,
    () => {
      const withAio = runs.filter((r) => r.engine === 'SEARCH_A' && r.page.aioverview);
      expect(withAio.length).toBeGreaterThan(0);
      for (const r of withAio) {
        const expected = r.page.aioverview as ExpectedAnswer;
        const served = r.served.aioverview;
        expect(served, r.page.id).toBeTruthy();
        const s = scoreAnswer(expected, served?.text ?? '', served?.sources);
        expect(s.f1, r.page.id).toBeGreaterThanOrEqual(F1_TARGET);
        expect(s.leaked, r.page.id).toBe(false);
        expect(s.sourcesInOrder, r.page.id).toBe(true);
        expect(s.labelsOk, r.page.id).toBeGreaterThanOrEqual(LABEL_TARGET);
      }
    },
  );

  it(`reads each AI Mode answer: visible text F1 >= ${F1_TARGET}, sources in order with their card titles`, () => {
    const aimode = runs.filter((r) => r.engine === 'AIMODE');
    expect(aimode.length).toBeGreaterThan(0);
    for (const r of aimode) {
      const s = scoreAnswer(r.page.aimode as ExpectedAnswer, r.served.text ?? '', r.served.sources);
      expect(s.f1, r.page.id).toBeGreaterThanOrEqual(F1_TARGET);
      expect(s.leaked, r.page.id).toBe(false);
      expect(s.sourcesInOrder, r.page.id).toBe(true);
      expect(s.labelsOk, r.page.id).toBeGreaterThanOrEqual(LABEL_TARGET);
    }
  });
});

function report(runs: Run[]): void {
  // Organic results and aioverview null are scored on the pages that hold results.
  const organicRow = (name: string, all: Run[]) => {
    const rs = all.filter(withResults);
    const expected = rs.reduce((n, r) => n + r.page.organic.length, 0);
    const found = rs.reduce((n, r) => n + organicFound(r.page.organic, r.served.organic), 0);
    return {
      rows: name,
      runs: rs.length,
      completed: rs.filter((r) => r.status === 'COMPLETED').length,
      'organic expected': expected,
      'organic found': found,
      share: expected ? found / expected : 1,
      'on Google sites': rs.reduce((n, r) => n + r.page.organic.filter((o) => onGoogleSite(o.url)).length, 0),
      'on Google found': rs.reduce(
        (n, r) =>
          n +
          organicFound(
            r.page.organic.filter((o) => onGoogleSite(o.url)),
            r.served.organic,
          ),
        0,
      ),
      'aio null ok': rs.filter(
        (r) => r.engine === 'SEARCH_A' && r.page.aioverview === null && r.served.aioverview === null,
      ).length,
      'aio null of': rs.filter((r) => r.engine === 'SEARCH_A' && r.page.aioverview === null).length,
    };
  };
  const sources = [...new Set(runs.map((r) => r.page.source))];
  const engines: Engine[] = ['SEARCH_A', 'SEARCH_A_SERP'];
  printTable('Google corpus: organic results (exact URL and title) and aioverview null', [
    ...sources
      .flatMap((s) =>
        engines.map((e) =>
          organicRow(
            `${s} ${e}`,
            runs.filter((r) => r.page.source === s && r.engine === e),
          ),
        ),
      )
      .filter((row) => row.runs > 0),
    ...engines.map((e) =>
      organicRow(
        `all ${e}`,
        runs.filter((r) => r.engine === e),
      ),
    ),
  ]);
  const kinds = [...new Set(runs.map((r) => expectOf(r.page)))];
  printTable(
    'Google corpus: how each page ended (results completed; ' +
      'no-results ENGINE_NO_RESULT; consent interstitial CONSENT_REQUIRED)',
    kinds.flatMap((k) =>
      engines.map((e) => {
        const rs = runs.filter((r) => expectOf(r.page) === k && r.engine === e);
        return {
          pages: k,
          engine: e,
          runs: rs.length,
          'as expected': rs.filter(endedAsExpected).length,
          'with raw.walls noted': rs.filter((r) => r.page.walls?.length).length,
        };
      }),
    ),
  );
  const answers = runs.flatMap((r) => {
    const expected = r.engine === 'AIMODE' ? r.page.aimode : r.engine === 'SEARCH_A' ? r.page.aioverview : null;
    if (!expected) return [];
    const served =
      r.engine === 'AIMODE'
        ? { text: r.served.text, sources: r.served.sources }
        : (r.served.aioverview ?? { text: '', sources: [] });
    const s = scoreAnswer(expected, served.text ?? '', served.sources);
    return [
      {
        page: r.page.id,
        engine: r.engine,
        status: r.error ? `${r.status} ${r.error.slice(0, 40)}` : r.status,
        precision: s.precision,
        recall: s.recall,
        f1: s.f1,
        'sources exp/got': `${expected.sources.length}/${served.sources?.length ?? 0}`,
        'in order': s.sourcesInOrder ? 'yes' : 'no',
        'card titles': s.labelsOk,
        leaked: s.leaked ? 'yes' : 'no',
      },
    ];
  });
  printTable('Google corpus: AI Overview and AI Mode answers', answers);
  const cardScores = runs.filter((r) => r.status === 'COMPLETED').flatMap(scoreCards);
  /** Pages expected to give `want` (0: an empty list, null: no list) that did: "k/n". */
  const okOf = (mine: typeof cardScores, want: 0 | null) => {
    const asked = mine.filter((s) => s.expected === want);
    return `${asked.filter((s) => s.served === want).length}/${asked.length}`;
  };
  printTable(
    'Google corpus: page cards (pages with the kind; cards expected/served; share of fields equal at their position)',
    (Object.keys(CARD_FIELDS) as CardKind[]).flatMap((kind) =>
      engines.map((engine) => {
        const mine = cardScores.filter((s) => s.kind === kind && s.engine === engine);
        const total = mine.reduce((n, s) => n + (s.expected ?? 0), 0);
        const row: Record<string, string | number> = {
          kind,
          engine,
          pages: mine.filter((s) => (s.expected ?? 0) > 0).length,
          'empty ok': okOf(mine, 0),
          'null ok': okOf(mine, null),
          'cards exp/got': `${total}/${mine.reduce((n, s) => n + (s.served ?? 0), 0)}`,
        };
        for (const f of CARD_FIELDS[kind])
          row[f] = total ? mine.reduce((n, s) => n + (s.fields[f] ?? 0), 0) / total : 1;
        return row;
      }),
    ),
  );
  const low = runs.filter(
    (r) => r.page.organic.length > 0 && organicFound(r.page.organic, r.served.organic) < r.page.organic.length,
  );
  printTable(
    `Pages missing expected organic results (${low.length})`,
    low.map((r) => ({
      page: r.page.id,
      engine: r.engine,
      status: r.status,
      expected: r.page.organic.length,
      found: organicFound(r.page.organic, r.served.organic),
    })),
  );
}

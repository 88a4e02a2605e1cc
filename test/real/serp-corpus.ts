/**
 * Shared pieces of the search-results corpus tests (Bing and Naver, test/fixtures/real/bing|naver):
 * the shape of expected.json, the replay run through the service, how an asserted result is
 * compared with what the service returned, the failure kind the service logged, and the table.
 */
import { load } from 'cheerio';
import { printTable, readCorpusFile, startReplayServer } from './harness.js';
import { runTask, startService, tempDir, writeConfig } from '../helpers/service.js';

/** One expected organic result, as the source project asserts it (or as derived from the DOM; see PROVENANCE.md). */
export interface ExpectedResult {
  rank: number | null;
  url: string;
  /** As the source stores it: may hold highlight tags (`<em>`, `<mark>`) and HTML entities. */
  title: string;
  /** Naver pages mix the source's asserted results with DOM-derived ones. */
  from?: 'asserted' | 'dom';
}

export interface CorpusSerp {
  id: string;
  source: string;
  file: string;
  contentType: string;
  capturedUrl?: string;
  /** Query the test submits; the replay server answers it with this page. */
  query: string;
  page: number;
  /**
   * `results`: organic results expected; `no_answer`: the page says there are none; `failure`: a block page or an
   * out-of-scope page, which must fail with `expectedKind`.
   */
  expect: 'results' | 'no_answer' | 'failure';
  /** Failure kind the adapter must report (`no_answer` and `failure` pages). */
  expectedKind?: string;
  outOfScope?: string;
  expectedFrom?: string;
  assertedCount?: number | null;
  results?: ExpectedResult[];
  provenance: Record<string, string>;
}

export interface ServedResult {
  url: string;
  title: string;
}

/** Visible text of a title stored as HTML (highlight tags dropped, entities decoded, spaces collapsed). */
export function titleText(stored: string): string {
  return load(`<p>${stored}</p>`)('p').text().replace(/\s+/g, ' ').trim();
}

/**
 * A URL as a client reads it: the WHATWG serialisation, so a raw href with unescaped characters
 * (Korean paths, spaces) compares equal to the same URL percent-encoded.
 */
export function canonicalUrl(u: string): string {
  try {
    return new URL(u).toString();
  } catch {
    return u;
  }
}

export interface Match {
  /** Found with the exact URL and the exact title. */
  exact: number;
  /** Found by URL alone (title differs). */
  urlOnly: number;
  missing: Array<{ want: ExpectedResult; gotTitle?: string }>;
}

/** Scores served results against the expected ones: exact URL and title, then URL alone. */
export function matchResults(expected: ExpectedResult[], served: ServedResult[]): Match {
  const byUrl = new Map<string, ServedResult>();
  for (const s of served) if (!byUrl.has(canonicalUrl(s.url))) byUrl.set(canonicalUrl(s.url), s);
  const m: Match = { exact: 0, urlOnly: 0, missing: [] };
  for (const want of expected) {
    const got = byUrl.get(canonicalUrl(want.url));
    if (got && got.title === titleText(want.title)) m.exact++;
    else {
      if (got) m.urlOnly++;
      m.missing.push(got ? { want, gotTitle: got.title } : { want });
    }
  }
  return m;
}

/** Failure kinds the service logged per task id ("engine attempt failed" lines at warn level). */
export function failureKinds(logLines: readonly string[]): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const line of logLines) {
    let rec: { msg?: string; taskId?: string; kind?: string };
    try {
      rec = JSON.parse(line) as typeof rec;
    } catch {
      continue;
    }
    if (rec.msg === 'engine attempt failed' && rec.taskId && rec.kind) kinds.set(rec.taskId, rec.kind);
  }
  return kinds;
}

/** Lower-cased, whitespace-collapsed query: the replay server's key, robust to trimming on the way. */
export function queryKey(q: string): string {
  return q.replace(/\s+/g, ' ').trim().toLowerCase();
}

export interface SerpOutcome {
  page: CorpusSerp;
  taskId: string;
  status: string;
  /** Task error code (ENGINE_NO_RESULT, ENGINE_FAILED, …). */
  code?: string;
  /** Failure kind the adapter reported (from the log). */
  kind?: string;
  served: number;
  match?: Match;
}

export interface SerpCorpusRun {
  outcomes: SerpOutcome[];
  stop(): Promise<void>;
}

export interface SerpCorpusOptions {
  taskType: string;
  dir: URL;
  pages: CorpusSerp[];
  /** Routing key of a corpus page, and of a request the adapter sent (undefined: not a search request). */
  keyOfPage(page: CorpusSerp): string;
  keyOfRequest(url: URL): string | undefined;
  payload(page: CorpusSerp): Record<string, unknown>;
  parallel: number;
}

/**
 * Replays every page of a search-results corpus: a loopback server answers the adapter's request
 * with the recorded page for its routing key, the real service runs the task over HTTP (one
 * attempt: a replayed page answers the same every time), and the served results are scored.
 */
export async function runSerpCorpus(o: SerpCorpusOptions): Promise<SerpCorpusRun> {
  const byKey = new Map(o.pages.map((p) => [o.keyOfPage(p), p]));
  const replay = await startReplayServer(({ url }) => {
    const key = o.keyOfRequest(new URL(url, 'http://replay'));
    const page = key === undefined ? undefined : byKey.get(key);
    if (!page) return undefined;
    return { headers: { 'content-type': page.contentType }, body: readCorpusFile(new URL(page.file, o.dir)) };
  });
  const config = writeConfig(tempDir(), {
    scheduler: { retryBaseMs: 20, retryMaxMs: 100, exitCooldownMs: 50, pollMs: 50 },
    engines: {
      [o.taskType]: { concurrency: o.parallel, timeoutMs: 30_000, maxAttempts: 1, upstream: { baseUrl: replay.url } },
    },
    exitAddresses: [{ id: 'direct', country: 'US', maxConcurrent: o.parallel }],
  });
  const logLines: string[] = [];
  const svc = await startService({ AEQ_SANDBOX: '0', AEQ_CONFIG: config }, { logLines });

  const outcomes: SerpOutcome[] = [];
  const queue = [...o.pages];
  const worker = async () => {
    for (let page = queue.shift(); page; page = queue.shift()) {
      const r = await runTask(svc, { taskType: o.taskType, payload: o.payload(page) }, 60_000);
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
  await Promise.all(Array.from({ length: o.parallel }, worker));
  // The task error keeps only the code; the failure kind (NO_ANSWER, LAYOUT_CHANGED, …) is in the log.
  const kinds = failureKinds(logLines);
  for (const x of outcomes) if (x.status === 'FAILED') x.kind = kinds.get(x.taskId) ?? 'unlogged';
  outcomes.sort((a, b) => a.page.id.localeCompare(b.page.id));
  return {
    outcomes,
    async stop() {
      await svc.stop();
      await replay.close();
    },
  };
}

/** Whether a page ended as its entry says: results completed, or a failure of the expected kind. */
export function asExpected(x: SerpOutcome): boolean {
  return x.page.expect === 'results'
    ? x.status === 'COMPLETED'
    : x.status === 'FAILED' && x.kind === x.page.expectedKind;
}

/** Share of the expected results found with the exact URL and title, over the pages `filter` keeps. */
export function foundShare(
  outcomes: SerpOutcome[],
  filter: (x: SerpOutcome) => boolean = () => true,
): { expected: number; exact: number; share: number } {
  const scored = outcomes.filter((x) => x.match && filter(x));
  const expected = scored.reduce((n, x) => n + (x.page.results?.length ?? 0), 0);
  const exact = scored.reduce((n, x) => n + (x.match?.exact ?? 0), 0);
  return { expected, exact, share: expected ? exact / expected : 1 };
}

/** The corpus table (per source, then no-results, block and out-of-scope pages) and the pages that were off. */
export function reportSerpCorpus(title: string, outcomes: SerpOutcome[]): void {
  const row = (name: string, os: SerpOutcome[]) => {
    const f = foundShare(os);
    return {
      set: name,
      pages: os.length,
      'as expected': `${os.filter(asExpected).length}/${os.length}`,
      'expected results': f.expected,
      'exact url+title': f.exact,
      'url only': os.reduce((n, x) => n + (x.match?.urlOnly ?? 0), 0),
      found: f.share,
    };
  };
  const sources = [...new Set(outcomes.map((x) => x.page.source))];
  printTable(title, [
    ...sources.map((s) =>
      row(
        `${s}: results`,
        outcomes.filter((x) => x.page.source === s && x.page.expect === 'results'),
      ),
    ),
    row(
      'no-results pages',
      outcomes.filter((x) => x.page.expect === 'no_answer'),
    ),
    row(
      'block pages',
      outcomes.filter((x) => x.page.expect === 'failure' && !x.page.outOfScope),
    ),
    row(
      'out of scope',
      outcomes.filter((x) => x.page.outOfScope),
    ),
    row('all', outcomes),
  ]);
  const off = outcomes.filter((x) => !asExpected(x) || (x.match?.missing.length ?? 0) > 0);
  printTable(
    `Pages not as expected (${off.length})`,
    off.map((x) => ({
      id: x.page.id,
      expect: x.page.expect,
      status: x.code ? `${x.status} ${x.code} ${x.kind ?? ''}` : x.status,
      served: x.served,
      missing: x.match?.missing.length ?? 0,
      first: x.match?.missing[0]
        ? `${x.match.missing[0].want.url.slice(0, 60)} (got ${x.match.missing[0].gotTitle ?? 'no url'})`
        : '',
    })),
  );
}

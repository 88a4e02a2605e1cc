/**
 * Shared pieces of the search-results corpus tests (Bing and Naver, test/fixtures/real/bing|naver):
 * the shape of expected.json, how an asserted result is compared with what the service returned,
 * and the failure kind the service logged for a task.
 */
import { load } from 'cheerio';

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
  /** `results`: organic results expected; `no_answer`: the page says there are none; `failure`: a block page or an out-of-scope page, which must fail with `expectedKind`. */
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

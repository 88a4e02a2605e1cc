import { UpstreamFailure } from '../../domain/engine-errors.js';

/** What `span.sb_count` says: the first result shown (when a range is printed) and the total. */
export interface ResultCount {
  /** 1-based rank of the first result on the page; null when only a total is printed (page 1 style). */
  rangeStart: number | null;
  total: number | null;
}

/**
 * Reads `span.sb_count` text in any locale: "11-20 of 1,230,000 results", "About 1,230,000 results",
 * "11-20 von 1.230.000 Ergebnissen", "결과 11-20/1,230,000". Thousands separators vary by market, so
 * numbers are read as digit runs with separators removed.
 */
export function parseResultCount(text: string): ResultCount {
  const range = /(\d[\d.,\u00a0\u202f]*)\s*[-–]\s*(\d[\d.,\u00a0\u202f]*)/.exec(text);
  const numbers = [...text.matchAll(/\d[\d.,\u00a0\u202f]*/g)]
    .map((m) => Number(m[0].replace(/\D/g, '')))
    .filter(Number.isFinite);
  // The total is never below the range end, so the largest number printed is the total.
  const total = numbers.length > 0 ? Math.max(...numbers) : null;
  return { rangeStart: range?.[1] ? Number(range[1].replace(/\D/g, '')) : null, total };
}

export type PageCheck = 'match' | 'unverified';

/**
 * The page check of docs/engines.md#bing-results: past the end is a legitimate absence; another page than the one
 * asked for is Bing's soft rate limit (it quietly serves page 1).
 */
export function checkRequestedPage(count: ResultCount | null, first: number): PageCheck {
  if (!count) return first === 1 ? 'match' : 'unverified';
  if (count.total !== null && first > count.total) {
    throw new UpstreamFailure('NO_ANSWER', `bing: requested first=${first} is past the end (${count.total} results)`);
  }
  const shownFirst = count.rangeStart ?? 1;
  if (shownFirst !== first) {
    throw new UpstreamFailure('RATE_LIMITED', `bing: asked for first=${first}, page starts at ${shownFirst}`);
  }
  return 'match';
}

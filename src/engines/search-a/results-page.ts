import { cheerio } from '../lazy-modules.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { parseAiOverview, type AiOverview } from './aio-parser.js';
import { hasNoResultsNotice, parseOrganic, resultRoot, type OrganicResult } from './organic-parser.js';
import { assertHttpOk, assertNotWalled, type FetchedPage } from './page-signals.js';

export interface ResultsPage {
  organic: OrganicResult[];
  /** null when the page has no AI Overview (or only its lazy placeholder). */
  aioverview: AiOverview | null;
  /** Diagnostics for `raw`: selector tiers, counts and the language the page was served in. */
  diagnostics: {
    servedLanguage: string | null;
    tiers: { root: string; link: string | null; snippet: Record<string, number>; aio: string | null };
    aioStatus: 'present' | 'placeholder' | 'absent' | 'not-read';
    organicCount: number;
    skipped: { internal: number; duplicate: number };
  };
}

/**
 * Reads a Google results page (upstreams.md 1 and 2) in the order of section 0: blocked, consent,
 * HTTP faults, then structure. Zero results with a "did not match" notice is NO_ANSWER; zero results
 * without one is LAYOUT_CHANGED.
 */
export function parseResultsPage(page: FetchedPage, opts: { page: number; readAio: boolean }): ResultsPage {
  const $ = cheerio().load(page.html);
  const structurePresent = resultRoot($) !== null;
  assertNotWalled($, page, structurePresent || hasNoResultsNotice($));
  assertHttpOk(page);

  const aio = opts.readAio ? parseAiOverview($, page.finalUrl) : null;
  const organic = parseOrganic($, page.finalUrl, (opts.page - 1) * 10, aio && aio.status !== 'absent' ? aio.container : null);
  const aioverview = aio?.status === 'present' ? aio.overview : null;
  if (organic.results.length === 0 && !aioverview) {
    if (hasNoResultsNotice($)) throw new UpstreamFailure('NO_ANSWER', 'google: the query did not match any documents');
    throw new UpstreamFailure(
      'LAYOUT_CHANGED',
      structurePresent ? `google: ${organic.tiers.root} present but no result links matched` : 'google: no #search/#rso and no result links',
    );
  }
  return {
    organic: organic.results,
    aioverview,
    diagnostics: {
      servedLanguage: $('html').attr('lang') ?? null,
      tiers: { ...organic.tiers, aio: aio && aio.status !== 'absent' ? aio.tier : null },
      aioStatus: aio?.status ?? 'not-read',
      organicCount: organic.results.length,
      skipped: organic.skipped,
    },
  };
}

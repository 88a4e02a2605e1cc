import { cheerio } from '../lazy-modules.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { parseAiOverview, type AiOverview } from './aio-parser.js';
import { hasNoResultsNotice, parseOrganic, resultRoot, type OrganicResult } from './organic-parser.js';
import { assertHttpOk, assertNoWall, assertNotBlocked, wallNotes, wallSignals } from './page-signals.js';
import type { HtmlPage } from '../common/html-page.js';
import type { EngineLocale } from '../engine-result.js';
import { googleServedLocale } from './served-locale.js';
import { parsePageCards, type PageCards, type PageCardTiers } from './page-cards.js';

export interface ResultsPage {
  organic: OrganicResult[];
  /** null when the page has no AI Overview (or only its lazy placeholder). */
  aioverview: AiOverview | null;
  /** Where Google says it served the page for, or null when it says nothing. */
  locale: EngineLocale | null;
  /**
   * Shopping cards, sponsored units and the local pack (docs/engines.md#google-page-cards); null on a layout
   * whose cards are not read (the basic-HTML pages without `#search`/`#rso`).
   */
  cards: PageCards | null;
  /** Diagnostics for `raw`: selector tiers, counts and the language the page was served in. */
  diagnostics: {
    servedLanguage: string | null;
    tiers: {
      root: string;
      link: string | null;
      snippet: Record<string, number>;
      aio: string | null;
      aioProse: string | null;
      cards: PageCardTiers | null;
    };
    aioStatus: 'present' | 'placeholder' | 'absent' | 'not-read';
    organicCount: number;
    skipped: { internal: number; duplicate: number };
    /**
     * Consent dialog or captcha markers on a page whose results are there
     * (docs/engines.md#google-walls-and-blocks).
     */
    walls: string[];
  };
}

/**
 * Reads a Google results page (docs/engines.md#google-search, #google-results-pages-1-10): pages that cannot
 * hold results (sorry page, enablejs, consent host, 429/403) first, then the results. A consent dialog or
 * captcha marker ends the attempt only when nothing usable is on the page; zero results with a "did not
 * match" notice is NO_ANSWER; zero results with neither is LAYOUT_CHANGED.
 */
export function parseResultsPage(page: HtmlPage, opts: { page: number; readAio: boolean }): ResultsPage {
  assertNotBlocked(page);
  const $ = cheerio().load(page.html);
  const walls = wallSignals($, page);
  assertHttpOk(page, walls);

  const aio = opts.readAio ? parseAiOverview($, page.finalUrl) : null;
  const organic = parseOrganic(
    $,
    page.finalUrl,
    (opts.page - 1) * 10,
    aio && aio.status !== 'absent' ? aio.container : null,
  );
  const aioverview = aio?.status === 'present' ? aio.overview : null;
  if (organic.results.length === 0 && !aioverview) {
    if (hasNoResultsNotice($)) throw new UpstreamFailure('NO_ANSWER', 'google: the query did not match any documents');
    assertNoWall(walls, page.status);
    const root = resultRoot($);
    throw new UpstreamFailure(
      'LAYOUT_CHANGED',
      root
        ? `google: ${organic.tiers.root} present but no result links matched`
        : 'google: no #search/#rso and no result links',
    );
  }
  // The full layout (a results root) is the one whose units are known; an absent unit there is none.
  const cards = resultRoot($) ? parsePageCards($, page.finalUrl) : null;
  return {
    organic: organic.results,
    aioverview,
    locale: googleServedLocale($),
    cards: cards?.cards ?? null,
    diagnostics: {
      servedLanguage: $('html').attr('lang') ?? null,
      tiers: {
        ...organic.tiers,
        aio: aio && aio.status !== 'absent' ? aio.tier : null,
        aioProse: aio?.status === 'present' ? aio.proseTier : null,
        cards: cards?.tiers ?? null,
      },
      aioStatus: aio?.status ?? 'not-read',
      organicCount: organic.results.length,
      skipped: organic.skipped,
      walls: wallNotes(walls),
    },
  };
}

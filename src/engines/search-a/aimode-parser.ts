import { cheerio } from '../lazy-modules.js';
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { EngineLocale, EngineResult } from '../engine-result.js';
import { googleServedLocale } from './served-locale.js';
import { collectSources } from './answer-sources.js';
import { answerProse, collapse, dropLinkGroups, renderAnswer } from './answer-render.js';
import { hasNoResultsNotice, resultRoot } from './organic-parser.js';
import {
  assertHttpOk,
  assertNoDailyLimit,
  assertNotBlocked,
  assertNoWall,
  wallNotes,
  wallSignals,
} from './page-signals.js';
import type { HtmlPage } from '../common/html-page.js';

/**
 * Answer container markers, most stable first (docs/engines.md#google-ai-mode). The inline async container's id
 * holds the answer on 2026 pages whose data attributes a capture dropped.
 */
export const AI_MODE_CONTAINER_TIERS: ReadonlyArray<[tier: string, selector: string]> = [
  ['data-subtree=aimc', '[data-subtree="aimc"]'],
  ['data-aimmrs', '[data-aimmrs="true"]'],
  ['#aim-chrome-initial-inline-async-container', '#aim-chrome-initial-inline-async-container'],
];

export interface AiModeDiagnostics {
  servedLanguage: string | null;
  tiers: { container: string; prose: string };
  /** The user query as the turn heading shows it. */
  turnQuery: string | null;
  /** Consent dialog or captcha markers on a page whose answer is there (docs/engines.md#google-walls-and-blocks). */
  walls: string[];
}

/**
 * Reads a Google AI Mode page (udm=50). Order: pages that cannot hold an answer (sorry, enablejs,
 * consent host, 429/403), the daily limit, HTTP faults; then a page without the answer container
 * but with a normal SERP is NO_ANSWER (AI Mode unavailable there), a captcha or consent marker on a
 * page with neither is that wall, and nothing at all is LAYOUT_CHANGED. A container without content
 * is an answer that never arrived: TIMEOUT.
 */
export function parseAiModePage(
  page: HtmlPage,
): Omit<EngineResult, 'raw' | 'locale'> & { diagnostics: AiModeDiagnostics; locale: EngineLocale | null } {
  assertNotBlocked(page);
  const $ = cheerio().load(page.html);
  const walls = wallSignals($, page);
  const found = findContainer($);
  assertNoDailyLimit($, found ? found.selector : 'body');
  assertHttpOk(page, walls);
  if (!found) {
    if (walls.blocked) assertNoWall({ blocked: walls.blocked, consent: null }, page.status);
    if (resultRoot($) !== null || hasNoResultsNotice($)) {
      throw new UpstreamFailure(
        'NO_ANSWER',
        'google: ai_mode_unavailable (plain results page without the AI Mode answer)',
      );
    }
    assertNoWall(walls, page.status);
    throw new UpstreamFailure('LAYOUT_CHANGED', 'google: neither an AI Mode container nor a results page');
  }
  const { el, tier } = found;
  const { prose, tier: proseTier } = answerProse(el);
  const rendered = renderAnswer($, prose, page.finalUrl, (clone) => {
    // The turn heading repeats the question; without a prose column the source cards sit in the container too.
    clone.find('[data-scope-id="turn"] > [role="heading"], [role="heading"][aria-level="2"]').remove();
    if (proseTier === 'container') dropLinkGroups($, clone);
  });
  const sources = collectSources(
    $,
    [
      { el: prose, kind: 'inline' },
      { el: el.find('[role="dialog"]'), kind: 'cards' },
      { el, kind: 'cards' },
    ],
    page.finalUrl,
  );
  if ((rendered.text.match(/[\p{L}\p{N}]/gu) ?? []).length < 20 && sources.length === 0) {
    throw new UpstreamFailure('TIMEOUT', 'google: AI Mode container present but the answer never arrived');
  }
  const turnHeading = el.closest('[data-scope-id="turn"]').find('[role="heading"][aria-level="2"]').first();
  return {
    text: rendered.text,
    markdown: rendered.markdown,
    sources,
    locale: googleServedLocale($),
    diagnostics: {
      servedLanguage: $('html').attr('lang') ?? null,
      tiers: { container: tier, prose: proseTier },
      turnQuery: turnHeading.length > 0 ? collapse(turnHeading.text()) : null,
      walls: wallNotes(walls),
    },
  };
}

/** The last turn's container: a page with follow-ups holds one per turn and the newest answers the query. */
function findContainer($: CheerioAPI): { el: Cheerio<Element>; tier: string; selector: string } | null {
  for (const [tier, selector] of AI_MODE_CONTAINER_TIERS) {
    // Outermost containers only: a nested marker is part of the same answer.
    const el = $(selector)
      .filter((_, e): e is Element => e.type === 'tag' && $(e).parents(selector).length === 0)
      .last();
    if (el.length > 0) return { el, tier, selector };
  }
  return null;
}

import { cheerio } from '../lazy-modules.js';
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import {
  climbToAnswerSection,
  findLabelElements,
  readAnswerBlock,
  type AnswerBlock,
  type NaverAnswer,
} from './answer-block.js';
import { isBlockPage, isNoResultsPage } from './naver-signals.js';

/**
 * ASSUMPTION (a gap in docs/engines.md#naver-ai-tab: URL, DOM and transport of the AI tab, launched
 * 2026-06-25, are unverified). Designed here, following Naver's tab conventions:
 *   URL     GET /search.naver?ssc=tab.ai.all&query=<q>   (tabs are `ssc=tab.<name>.all`)
 *   markup  a conversation thread of turns; the answer turn is
 *           `<div class="fds-ai-tab-turn" data-turn-role="assistant">` with a heading "AI 답변",
 *           prose in p/li/h3 with numbered citation links, and reference/service link cards.
 * Tier 1 reads the assistant turn by its role attribute; tier 2 anchors on the heading text
 * "AI 답변" like the AI briefing. If the real tab renders client-side only, the plain-HTTP page is
 * a shell without either marker and this fails loudly (LAYOUT_CHANGED) — a browser transport is
 * then needed. The tier and this assumption are recorded in `raw`.
 */
export const AI_TAB_PARAMS = { ssc: 'tab.ai.all' } as const;
const AI_TAB_LABEL = 'AI 답변';
const ASSUMPTION =
  'AI tab URL and markup unverified: ssc=tab.ai.all; ' +
  'assistant turn [data-turn-role=assistant], fallback heading text "AI 답변"';

/** Parses the AI tab page: block page, then the answer (two tiers), then no-results, else layout drift. */
export function parseAiTab(html: string): NaverAnswer {
  const $ = cheerio().load(html);
  if (isBlockPage($)) throw new UpstreamFailure('UPSTREAM_BLOCKED', 'naver AI tab: block/captcha page');

  const turn = $('[data-turn-role="assistant"]').last();
  if (turn.length > 0) {
    const label = findLabelElements($, AI_TAB_LABEL).find((el) => turn.find(el).length > 0) ?? null;
    const block = readAnswerBlock($, turn, label);
    if (block.markdown.trim() !== '') return result(block, html, 'assistant-turn');
    throw new UpstreamFailure('LAYOUT_CHANGED', 'naver AI tab: assistant turn present but no prose');
  }
  const byHeading = fromHeading($);
  if (byHeading) {
    const block = readAnswerBlock($, byHeading.section, byHeading.label);
    if (block.markdown.trim() !== '') return result(block, html, 'heading-text');
  }
  if (isNoResultsPage($)) throw new UpstreamFailure('NO_ANSWER', 'naver AI tab: no answer for the query');
  // The tab answers every query, so a page without the answer is drift, not a legitimate absence.
  throw new UpstreamFailure('LAYOUT_CHANGED', 'naver AI tab: no assistant turn and no "AI 답변" section');
}

function fromHeading($: CheerioAPI): { section: Cheerio<Element>; label: Element } | null {
  for (const label of findLabelElements($, AI_TAB_LABEL)) {
    const section = climbToAnswerSection($, label);
    if (section) return { section, label };
  }
  return null;
}

function result(block: AnswerBlock, html: string, tier: string): NaverAnswer {
  return { ...block, raw: { html, tier, assumption: ASSUMPTION } };
}

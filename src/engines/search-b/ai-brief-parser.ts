import { cheerio } from '../lazy-modules.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { climbToAnswerSection, findLabelElements, readAnswerBlock, type NaverAnswer } from './answer-block.js';
import { hasSearchContainer, isBlockPage, isNoResultsPage } from './naver-signals.js';

const AI_BRIEF_LABEL = 'AI 브리핑';

/**
 * ASSUMPTION (a gap in docs/engines.md#naver-ai-briefing): the AI briefing's markup is not verified. We anchor on
 * the visible heading text "AI 브리핑" and read the nearest enclosing section that holds prose and
 * at least one outbound link; class names are deliberately not relied on. Recorded in `raw`.
 */
const ASSUMPTION =
  'AI briefing markup unverified: anchored on the heading text "AI 브리핑", ' +
  'nearest ancestor with prose and an outbound link';

/**
 * Parses the integrated search page for its AI briefing. Decision order: block page; briefing
 * label found (extract, or LAYOUT_CHANGED when it has no prose); no-results text or a normal
 * result page without a briefing (NO_ANSWER); otherwise the layout moved.
 */
export function parseAiBriefing(html: string): NaverAnswer {
  const $ = cheerio().load(html);
  if (isBlockPage($)) throw new UpstreamFailure('UPSTREAM_BLOCKED', 'naver integrated search: block/captcha page');

  const labels = findLabelElements($, AI_BRIEF_LABEL);
  if (labels.length === 0) {
    if (isNoResultsPage($)) throw new UpstreamFailure('NO_ANSWER', 'naver integrated search: no results for the query');
    if (hasSearchContainer($))
      throw new UpstreamFailure('NO_ANSWER', 'naver integrated search: no AI briefing for this query');
    throw new UpstreamFailure('LAYOUT_CHANGED', 'naver integrated search: neither #main_pack nor an "AI 브리핑" label');
  }
  for (const label of labels) {
    const section = climbToAnswerSection($, label);
    if (!section) continue;
    const block = readAnswerBlock($, section, label);
    if (block.markdown.trim() === '') continue;
    return {
      ...block,
      raw: { html, tier: 'heading-text', label: AI_BRIEF_LABEL, assumption: ASSUMPTION },
    };
  }
  throw new UpstreamFailure(
    'LAYOUT_CHANGED',
    'naver AI briefing: "AI 브리핑" label present but no section with prose and sources',
  );
}

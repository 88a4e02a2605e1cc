import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import type { Source } from '../engine-result.js';
import { collectSources } from './answer-sources.js';
import {
  answerProse,
  collapse,
  dropLinkGroups,
  isPeopleAlsoAsk,
  PEOPLE_ALSO_ASK,
  renderAnswer,
  visibleLetterCount,
} from './answer-render.js';

export interface AiOverview {
  text: string;
  markdown: string;
  sources: Source[];
}

export type AioParse =
  | { status: 'present'; tier: string; proseTier: string; container: Element; overview: AiOverview }
  /** The container is there but holds only the "Searching…" shell: the body streams in later via /async. */
  | { status: 'placeholder'; tier: string; container: Element }
  | { status: 'absent' };

/** Localised AI Overview headings (docs/engines.md#google-ai-overview): the most stable anchor there is. */
const AI_OVERVIEW_LABELS: ReadonlySet<string> = new Set([
  'AI Overview',
  'AI 개요',
  'AI による概要',
  'Übersicht mit KI',
  'Visão geral criada por IA',
  'Vista creada con IA',
  'Aperçu IA',
  'Aperçu généré par l’IA',
  'Panoramica IA',
]);

/**
 * Container markers in order of trust (docs/engines.md#google-ai-overview, corrected from real pages saved in late
 * 2025); first match wins and is recorded as the tier. `jsname="N760b"` is People also ask on those
 * pages and is no overview marker; a candidate inside or around People also ask is never taken.
 */
const CONTAINER_TIERS: ReadonlyArray<[tier: string, find: ($: CheerioAPI) => Cheerio<Element>]> = [
  [
    'YzCcne[data-mcpr]',
    ($) =>
      $('div.YzCcne[data-mcpr]').filter(
        (_, e) => $(e).find('#m-x-content, [data-subtree="aimc"], [data-container-id="main-col"]').length > 0,
      ),
  ],
  ['#m-x-content', ($) => $('#m-x-content').map((_, e) => $(e).closest('[data-mcpr]').get(0) ?? e) as Cheerio<Element>],
  ['data-subtree=aimc', ($) => $('[data-subtree="aimc"]')],
  ['data-attrid', ($) => $('[data-attrid="AIOverview"], [data-attrid*="overview" i]')],
  ['aria-label', ($) => $('[aria-label*="AI Overview" i]:not([role="button"]):not(button)')],
];
/**
 * Last resort after the heading (docs/engines.md#google-ai-overview): the 2026 answer body class, for captures that
 * kept neither the data attributes nor the "AI Overview" heading. The container is the answer's
 * `<section>` (it also holds the source list beside the body), else the body itself.
 */
const ANSWER_BODY_TIER: [tier: string, find: ($: CheerioAPI) => Cheerio<Element>] = [
  'answer-body',
  ($) => $('.mZJni').map((_, e) => $(e).closest('section').get(0) ?? e) as Cheerio<Element>,
];
const HEADINGS = 'h1, h2, h3, [role="heading"], strong';

/** Finds and reads the AI Overview of a results page; absence is a normal outcome. */
export function parseAiOverview($: CheerioAPI, pageUrl: string): AioParse {
  const found = findContainer($);
  if (!found) return { status: 'absent' };
  const { el, tier } = found;
  const container = el.get(0) as Element;
  const { prose, tier: proseTier } = answerProse(el);
  // Without a prose column the container also holds the heading and the source cards: keep them out of the prose.
  const rendered = renderAnswer($, prose, pageUrl, (clone) => {
    labelHeadings($, clone).remove();
    if (proseTier === 'container') dropLinkGroups($, clone);
  });
  const sources = collectSources(
    $,
    [
      { el: prose, kind: 'inline' },
      { el, kind: 'cards' },
    ],
    pageUrl,
  );
  if (letterCount(rendered.text) < 20 && sources.length === 0) return { status: 'placeholder', tier, container };
  return {
    status: 'present',
    tier,
    proseTier,
    container,
    overview: { text: rendered.text, markdown: rendered.markdown, sources },
  };
}

function findContainer($: CheerioAPI): { el: Cheerio<Element>; tier: string } | null {
  for (const [tier, find] of CONTAINER_TIERS) {
    const el = find($)
      .filter(
        (_, e): e is Element => e.type === 'tag' && !isPeopleAlsoAsk($, e) && $(e).find(PEOPLE_ALSO_ASK).length === 0,
      )
      .first();
    if (el.length > 0) return { el, tier };
  }
  const heading = labelHeadings($)
    .filter((_, h) => !isPeopleAlsoAsk($, h))
    .first();
  if (heading.length === 0) return answerBody($);
  // Climb to the nearest ancestor that shows an answer besides the heading: hidden fallback lines
  // ("not available") and the heading itself do not count.
  const labelLetters = letterCount(collapse(heading.text()));
  for (const anc of heading.parents().toArray()) {
    const a = $(anc);
    if (a.is('body, #rso, #search') || a.find(PEOPLE_ALSO_ASK).length > 0) break;
    if (visibleLetterCount($, a) - labelLetters >= 20) return { el: a, tier: 'heading-label' };
  }
  return answerBody($);
}

function answerBody($: CheerioAPI): { el: Cheerio<Element>; tier: string } | null {
  const [tier, find] = ANSWER_BODY_TIER;
  const el = find($)
    .filter(
      (_, e): e is Element => e.type === 'tag' && !isPeopleAlsoAsk($, e) && $(e).find(PEOPLE_ALSO_ASK).length === 0,
    )
    .first();
  return el.length > 0 ? { el, tier } : null;
}

/** Heading elements whose whole text is a localised "AI Overview" label. */
function labelHeadings($: CheerioAPI, scope?: Cheerio<Element>): Cheerio<Element> {
  return (scope ? scope.find(HEADINGS) : $(HEADINGS)).filter((_, h) => AI_OVERVIEW_LABELS.has(collapse($(h).text())));
}

function letterCount(s: string): number {
  return (s.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

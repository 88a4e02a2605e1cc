import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import type { Source } from '../adapter.js';
import { collectSources } from './answer-sources.js';
import { collapse, dropLinkGroups, renderAnswer } from './answer-render.js';

export interface AiOverview {
  text: string;
  markdown: string;
  sources: Source[];
}

export type AioParse =
  | { status: 'present'; tier: string; container: Element; overview: AiOverview }
  /** The container is there but holds only the "Searching…" shell: the body streams in later via /async. */
  | { status: 'placeholder'; tier: string; container: Element }
  | { status: 'absent' };

/** Localised AI Overview headings (upstreams.md 1.5): the most stable anchor there is. */
export const AI_OVERVIEW_LABELS: ReadonlySet<string> = new Set(['AI Overview', 'AI 개요', 'AI による概要', 'Übersicht mit KI']);

/** Container markers in order of trust; first match wins and is recorded as the tier. */
const CONTAINER_TIERS: ReadonlyArray<[tier: string, selector: string]> = [
  ['data-attrid', '[data-attrid="AIOverview"], [data-attrid*="overview" i]'],
  ['jsname=N760b', 'div[jsname="N760b"]'],
  ['#m-x-content', '#m-x-content'],
  ['aria-label', '[aria-label*="AI Overview" i]:not([role="button"]):not(button)'],
  ['data-subtree=aimc', '[data-subtree="aimc"]'],
];
const HEADINGS = 'h1, h2, h3, [role="heading"], strong';

/** Finds and reads the AI Overview of a results page; absence is a normal outcome. */
export function parseAiOverview($: CheerioAPI, pageUrl: string): AioParse {
  const found = findContainer($);
  if (!found) return { status: 'absent' };
  const { el, tier } = found;
  const container = el.get(0) as Element;
  const mainCol = el.find('[data-container-id="main-col"]').first();
  const prose = mainCol.length > 0 ? mainCol : el;
  // Without a main column the container also holds the heading and the source cards: keep them out of the prose.
  const rendered = renderAnswer($, prose, pageUrl, (clone) => {
    labelHeadings($, clone).remove();
    if (mainCol.length === 0) dropLinkGroups($, clone);
  });
  const sources = collectSources($, [{ el: prose, kind: 'inline' }, { el, kind: 'cards' }], pageUrl);
  if (letterCount(rendered.text) < 20 && sources.length === 0) return { status: 'placeholder', tier, container };
  return { status: 'present', tier, container, overview: { text: rendered.text, markdown: rendered.markdown, sources } };
}

function findContainer($: CheerioAPI): { el: Cheerio<Element>; tier: string } | null {
  for (const [tier, sel] of CONTAINER_TIERS) {
    const el = $(sel)
      .filter((_, e): e is Element => e.type === 'tag')
      .first();
    if (el.length > 0) return { el, tier };
  }
  const heading = labelHeadings($).first();
  if (heading.length === 0) return null;
  // Climb to the nearest ancestor that holds the answer: at least 3 text-bearing descendants.
  for (const anc of heading.parents().toArray()) {
    const a = $(anc);
    if (a.is('body, #rso, #search')) break;
    if (a.find('p, li, span, a').length >= 3) return { el: a, tier: 'heading-label' };
  }
  return null;
}

/** Heading elements whose whole text is a localised "AI Overview" label. */
function labelHeadings($: CheerioAPI, scope?: Cheerio<Element>): Cheerio<Element> {
  return (scope ? scope.find(HEADINGS) : $(HEADINGS)).filter((_, h) => AI_OVERVIEW_LABELS.has(collapse($(h).text())));
}

function letterCount(s: string): number {
  return (s.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import type TurndownService from 'turndown';
import { turndown as loadTurndown, turndownGfm } from '../lazy-modules.js';
import { markdownToText } from '../common/markdown-text.js';
import { isHelpPointer, publisherUrl } from './google-links.js';

/**
 * Elements that are chrome, not answer (docs/engines.md#google-ai-overview text hygiene,
 * #google-ai-mode secondary subtree).
 * Not `[aria-hidden]`: Google sets it on the overview's visible headings and lists. `.bNg8Rb` and
 * `.MheKwc` are Google's visually hidden headings ("Web results", "AI Mode replied:"), seen on real
 * pages of 2025-2026.
 */
const NOISE =
  'style, script, template, noscript, svg, button, img[src^="data:"], ' +
  '[data-subtree="aimba"], [role="dialog"], [hidden], .bNg8Rb, .MheKwc';
/** Not displayed: the hidden fallback lines of the overview block, folded source lists, data blobs. */
export const NOT_DISPLAYED = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i;
/** Inline elements that carry words of the answer even when Google makes them clickable (entity chips). */
const INLINE_TAGS: ReadonlySet<string> = new Set(['a', 'span', 'u', 'b', 'strong', 'em', 'i', 'mark', 'code']);

/** Feedback and control boilerplate that surrounds AI answers (whole-element text). */
const BOILERPLATE_TEXTS = [
  String.raw`AI responses may include mistakes\.?(\s*Learn more)?`,
  'AI can make mistakes, so double-check responses',
  String.raw`Use code with caution\.?`,
  'Learn more|Thank you|Share more feedback|Report a problem|Show more|Show less|Show all',
  String.raw`Generative AI is experimental\.?`,
  'An AI Overview is not available for this search',
  String.raw`Can't generate an AI overview right now\. Try again later\.`,
  String.raw`AI 대답에 실수가 있을 수 있습니다\.?(\s*자세히 알아보기)?`,
  '자세히 알아보기|더보기|Saiba mais|Mostrar mais|Mostrar menos',
];
const BOILERPLATE = new RegExp(`^(${BOILERPLATE_TEXTS.join('|')})$`, 'i');

/**
 * People also ask (docs/engines.md#google-ai-overview corrections): the block, its questions and the answers it
 * unfolds. Never an overview, never organic.
 */
export const PEOPLE_ALSO_ASK =
  '.related-question-pair, [jsname="N760b"], [jsname="Cpkphb"], [jsname="yEVEwb"], [aria-label*="People also ask" i]';

export function isPeopleAlsoAsk($: CheerioAPI, el: Element): boolean {
  return $(el).closest(PEOPLE_ALSO_ASK).length > 0;
}

/**
 * Where the prose of an AI answer sits, most stable first: the main column, the answer body
 * (`.mZJni`, 2026; attribute-stripped captures keep only the class), else the whole container.
 */
export function answerProse(container: Cheerio<Element>): {
  prose: Cheerio<Element>;
  tier: 'main-col' | 'answer-body' | 'container';
} {
  const mainCol = container.find('[data-container-id="main-col"]').first();
  if (mainCol.length > 0) return { prose: mainCol, tier: 'main-col' };
  const body = container.find('.mZJni').first();
  if (body.length > 0) return { prose: body, tier: 'answer-body' };
  return { prose: container, tier: 'container' };
}

/** Letters and digits a reader sees in `el`: hidden and non-text elements left out. */
export function visibleLetterCount($: CheerioAPI, el: Cheerio<Element>): number {
  const clone = el.clone();
  dropHidden($, clone);
  clone.find('style, script, template, noscript, svg').remove();
  return (clone.text().match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/**
 * A button's tooltip ("Copy", "Good response"): a short `aria-hidden` label beside the button. Other
 * `aria-hidden` parts of an answer (its headings and lists) are shown and stay.
 */
function dropTooltips($: CheerioAPI, clone: Cheerio<Element>): void {
  clone.find('[aria-hidden="true"]').each((_, el) => {
    const tip = $(el);
    if (
      tip.is('[role="heading"], h1, h2, h3, h4, ul, ol, li, p') ||
      tip.find('p, li, h1, h2, h3, h4, [role="heading"]').length > 0
    )
      return;
    if (collapse(tip.text()).length > 40) return;
    // A tooltip shares its wrapper with the one control it labels.
    const others = tip.siblings();
    if (others.length === 1 && (others.is('button') || others.find('button').length > 0)) tip.remove();
  });
}

/**
 * Google's answer markup in the shapes Markdown knows: `role="heading"` with its level becomes a
 * heading, a `div` inside a phrase (entity chips wrap words in one) stays inline, and the `div`
 * wrappers Google puts between a list and its items go.
 */
function normaliseStructure($: CheerioAPI, clone: Cheerio<Element>): void {
  clone.find('[role="heading"]').each((_, el) => {
    const level = Math.min(6, Math.max(1, Number($(el).attr('aria-level')) || 3));
    if (!/^h[1-6]$/.test(el.tagName)) el.tagName = `h${level}`;
  });
  clone.find('div').each((_, el) => {
    if ($(el).parents('span, a, strong, b, em, i, u, mark, code, p').length > 0) el.tagName = 'span';
  });
  clone.find('ul > div, ol > div').each((_, el) => {
    $(el).replaceWith($(el).contents());
  });
}

function dropHidden($: CheerioAPI, clone: Cheerio<Element>): void {
  clone.find('[style]').each((_, el) => {
    if (NOT_DISPLAYED.test($(el).attr('style') ?? '')) $(el).remove();
  });
  clone.find('[hidden]').remove();
}

export interface RenderedAnswer {
  markdown: string;
  text: string;
}

/**
 * Renders an answer subtree to Markdown (headings, lists, GFM tables, links kept) and to plain text.
 * Works on a clone, so the caller's document keeps its source anchors; `prune` removes what the
 * caller knows is not answer (a heading, source cards) from that clone.
 */
export function renderAnswer(
  $: CheerioAPI,
  body: Cheerio<Element>,
  pageUrl: string,
  prune?: (clone: Cheerio<Element>) => void,
): RenderedAnswer {
  const clone = body.clone();
  dropHidden($, clone);
  dropSourceCardLists($, clone);
  dropCodeLabels($, clone);
  dropTooltips($, clone);
  clone.find(NOISE).remove();
  // Controls go; a clickable phrase (an entity chip, a linked term) keeps its words.
  clone.find('[role="button"]').each((_, el) => {
    if (!INLINE_TAGS.has(el.tagName)) $(el).remove();
  });
  clone.find('a[href]').each((_, el) => {
    const a = $(el);
    // The controls' help pointer ("Learn more") is chrome, while a link to a help article is prose
    // (docs/engines.md#google-ai-overview); an empty link is a citation chip's overlay, a source and not prose.
    if (isHelpPointer(a.attr('href') ?? '') || (!collapse(a.text()) && a.find('img').length === 0)) a.remove();
  });
  normaliseStructure($, clone);
  prune?.(clone);
  clone.find('*').each((_, el) => {
    const node = $(el);
    if (BOILERPLATE.test(collapse(node.text()))) node.remove();
  });
  // Links keep their publisher URL; Google-internal ones become plain text.
  clone.find('a').each((_, el) => {
    const a = $(el);
    const url = publisherUrl(a.attr('href'), pageUrl);
    if (url) a.attr('href', url);
    else a.replaceWith(a.contents());
  });
  const markdown = tidyMarkdown(turndown().turndown(clone.html() ?? ''));
  return { markdown, text: plainText(markdown) };
}

/**
 * Source panels that Google puts inside the answer body (2026: `role="list"` of `role="listitem"`
 * cards, each an overlay link with site, title and snippet): sources, read by collectSources, not
 * prose. Answer lists are `ul`/`ol`, never these.
 */
function dropSourceCardLists($: CheerioAPI, clone: Cheerio<Element>): void {
  clone.find('[role="list"]').each((_, el) => {
    const items = $(el).find('[role="listitem"]');
    if (items.length > 0 && items.toArray().every((item) => $(item).find('a[href]').length > 0)) $(el).remove();
  });
}

/**
 * A code widget (2026) frames its `<pre>` alone in a box and shows the language ("typescript") in a
 * sibling above it: widget chrome, not answer.
 */
function dropCodeLabels($: CheerioAPI, clone: Cheerio<Element>): void {
  clone.find('pre').each((_, pre) => {
    const frame = $(pre).parent();
    if (!frame.is('div') || frame.children().length !== 1) return;
    frame.prevAll('div').each((_, label) => {
      if ($(label).find('pre').length === 0 && /^[\w#+.-]{1,20}$/.test(collapse($(label).text()))) $(label).remove();
    });
  });
}

/** Removes blocks made only of links (source-card groups), which are sources, not prose. */
export function dropLinkGroups($: CheerioAPI, clone: Cheerio<Element>): void {
  clone.find('div, ul, ol').each((_, el) => {
    const group = $(el);
    const anchors = group.find('a[href]');
    if (anchors.length === 0) return;
    const squeeze = (t: string) => t.replace(/\s+/g, '');
    if (squeeze(group.text()) === squeeze(anchors.text())) group.remove();
  });
}

/** Plain text of the rendered Markdown: markup removed, table rows flattened to `cell | cell`. */
function plainText(markdown: string): string {
  const flattened = markdown
    .split('\n')
    .filter((line) => !/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-{0,}:?\s*$/.test(line))
    // A thematic break (`* * *`, Google's <hr> between sections) is layout, not words.
    .filter((line) => !/^\s*([-*_]\s*){3,}$/.test(line))
    .map((line) => (/^\s*\|.*\|\s*$/.test(line) ? splitRow(line).join(' | ') : line))
    .join('\n');
  return markdownToText(flattened);
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
}

function tidyMarkdown(md: string): string {
  return md
    .replace(/(?<![ \t\u00a0])[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

let service: TurndownService | null = null;

/** One configured converter: atx headings, `-` bullets, fenced code, GFM tables. */
function turndown(): TurndownService {
  if (service) return service;
  const s = new (loadTurndown())({
    headingStyle: 'atx',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '_',
  });
  // Answer prose is text, not Markdown source: escaping would litter it with backslashes.
  s.escape = (text: string) => text;
  s.use(turndownGfm().tables);
  s.addRule('compactListItem', { filter: 'li', replacement: listItem });
  service = s;
  return s;
}

/** The DOM members the list-item rule reads (turndown hands over domino nodes). */
interface ListItemNode {
  parentNode: { nodeName: string; getAttribute(name: string): string | null; children: ArrayLike<unknown> } | null;
  nextSibling: unknown;
}

/** `- item` / `n. item` with continuation lines indented under the item (turndown's own uses 3 spaces). */
function listItem(content: string, node: unknown): string {
  const li = node as ListItemNode;
  const parent = li.parentNode;
  let prefix = '- ';
  if (parent?.nodeName === 'OL') {
    const start = Number(parent.getAttribute('start') ?? '1') || 1;
    prefix = `${start + Array.prototype.indexOf.call(parent.children, li)}. `;
  }
  const item = content
    .replace(/^\n+/, '')
    .replace(/(?<!\n)\n+$/, '')
    .replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
  return prefix + item + (li.nextSibling ? '\n' : '');
}

import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import type { Source } from '../engine-result.js';
import { markdownToText } from '../common/markdown-text.js';
import { displayHost } from '../common/urls.js';
import { sourceUrlOf } from './naver-links.js';
import { collapse } from './naver-signals.js';

/**
 * Reading a generated answer block (AI briefing, AI tab) from Naver HTML whose exact markup is not
 * verified (docs/engines.md#naver-ai-briefing, #naver-ai-tab). The strategy is the documented heading-text
 * anchor: find the element whose text is exactly the block's label, climb to the nearest ancestor that holds
 * prose plus at least one outbound link, read prose blocks as the answer and links as sources.
 */

/** Prose units of an answer: paragraphs, list items and sub-headings. */
const PROSE = 'p, li, h3, h4, h5, blockquote';
/** Screen-reader-only text and controls are not part of the answer. */
const SKIP = 'script, style, noscript, button, svg, .blind, [aria-hidden="true"]';
/** A citation link's own text is just its number ("1", "[2]"). */
const CITATION_TEXT = /^\[?\d{1,3}\]?$/;

export interface AnswerBlock {
  markdown: string;
  text: string;
  sources: Source[];
}

/** A parsed answer with its diagnostics (`raw`: HTML, selector tier, assumption). */
export interface NaverAnswer extends AnswerBlock {
  raw: Record<string, unknown>;
}

/**
 * Deepest elements whose whole text is exactly `label`, outside links and navigation (tabs). Walks
 * up from the text nodes holding the label's last word, so a large page is not re-read per element.
 */
export function findLabelElements($: CheerioAPI, label: string): Element[] {
  const word = label.split(' ').at(-1) ?? label;
  const found: Element[] = [];
  $('body *')
    .contents()
    .each((_, node) => {
      if (node.type !== 'text' || !node.data.includes(word)) return;
      for (let el = node.parent; el && el.type === 'tag'; el = el.parent) {
        const t = collapse($(el).text());
        if (t === label) {
          if (!found.includes(el as Element)) found.push(el as Element);
          return;
        }
        if (t.length > label.length) return;
      }
    });
  return found.filter(
    (el) =>
      !['script', 'style', 'title'].includes(el.tagName) &&
      $(el).closest('a, nav, [role="tab"], [role="tablist"]').length === 0,
  );
}

/**
 * Nearest ancestor of the label holding prose and an outbound link; stops at the page's result
 * container so a missing answer never borrows text from unrelated sections.
 */
export function climbToAnswerSection($: CheerioAPI, label: Element): Cheerio<Element> | null {
  for (const ancestor of $(label).parents().toArray()) {
    const node = $(ancestor);
    if (node.is('body, html, #main_pack, .main_pack')) return null;
    if (proseBlocks($, node, label).length > 0 && outboundLinks($, node).length > 0) return node;
  }
  return null;
}

/** Outbound source links of a block, in document order. */
function outboundLinks($: CheerioAPI, root: Cheerio<Element>): Element[] {
  return root
    .find('a[href]')
    .toArray()
    .filter((a) => sourceUrlOf($(a).attr('href')) !== null);
}

/**
 * Prose blocks of a section, outermost only; a block made of nothing but link text is a source
 * card, not prose; the label itself is skipped.
 */
function proseBlocks($: CheerioAPI, root: Cheerio<Element>, label: Element | null): Element[] {
  return root
    .find(PROSE)
    .toArray()
    .filter((el) => {
      const node = $(el);
      if (node.closest(SKIP).length > 0) return false;
      if (label && (el === label || node.find(label).length > 0 || $(label).find(el).length > 0)) return false;
      if (node.parentsUntil(root, PROSE).length > 0) return false;
      const withoutLinks = node.clone();
      withoutLinks.find('a').remove();
      withoutLinks.find(SKIP).remove();
      return collapse(withoutLinks.text()).length > 0;
    });
}

/**
 * Renders the prose of `root` to Markdown with `[n]` citation markers (n = source position by first
 * appearance), then appends the section's uncited links as further sources in document order.
 */
export function readAnswerBlock($: CheerioAPI, root: Cheerio<Element>, label: Element | null): AnswerBlock {
  const labels = linkLabels($, root);
  const sources: Source[] = [];
  const positionOf = (url: string): number => {
    const existing = sources.find((s) => s.url === url);
    if (existing) return existing.position;
    const position = sources.length + 1;
    sources.push({ position, url, label: labels.get(url) ?? displayHost(url) });
    return position;
  };

  const lines: string[] = [];
  let previousWasItem = false;
  for (const el of proseBlocks($, root, label)) {
    const body = collapse(inline($, el, positionOf)).replace(/(?<!\s)\s+(\[\d+\])/g, '$1');
    if (!body) continue;
    const isItem = el.tagName === 'li';
    const prefix = isItem
      ? listPrefix($, el)
      : /^h[3-5]$/.test(el.tagName)
        ? '### '
        : el.tagName === 'blockquote'
          ? '> '
          : '';
    if (lines.length > 0) lines.push(isItem && previousWasItem ? '\n' : '\n\n');
    lines.push(prefix + body);
    previousWasItem = isItem;
  }
  for (const a of outboundLinks($, root)) positionOf(sourceUrlOf($(a).attr('href')) as string);

  const markdown = lines.join('');
  const text = markdownToText(markdown.replace(/\[\d+\]/g, ''));
  return { markdown, text, sources };
}

function inline($: CheerioAPI, node: AnyNode, cite: (url: string) => number): string {
  if (node.type === 'text') return node.data;
  if (node.type !== 'tag') return '';
  const el = node as Element;
  if ($(el).is(SKIP)) return '';
  if (el.tagName === 'br') return ' ';
  const inner = () => el.children.map((c) => inline($, c, cite)).join('');
  if (el.tagName === 'a') {
    const url = sourceUrlOf($(el).attr('href'));
    const shown = collapse(inner());
    if (!url) return shown;
    const marker = `[${cite(url)}]`;
    return CITATION_TEXT.test(shown) || shown === '' ? marker : `${shown}${marker}`;
  }
  if (el.tagName === 'b' || el.tagName === 'strong') {
    const t = collapse(inner());
    return t ? `**${t}**` : '';
  }
  return inner();
}

function listPrefix($: CheerioAPI, li: Element): string {
  const list = $(li).parent();
  if (!list.is('ol')) return '- ';
  return `${list.children('li').index(li) + 1}. `;
}

/** Best title per source URL: a headline span in a source card, else a non-numeric link text. */
function linkLabels($: CheerioAPI, root: Cheerio<Element>): Map<string, string> {
  const labels = new Map<string, string>();
  for (const a of root.find('a[href]').toArray()) {
    const url = sourceUrlOf($(a).attr('href'));
    if (!url || labels.has(url)) continue;
    const node = $(a);
    const headline = collapse(node.find('[class*="headline"], [class*="title"]').first().text());
    const shown = collapse(node.clone().find(SKIP).remove().end().text());
    const title = headline || node.attr('title')?.trim() || (CITATION_TEXT.test(shown) ? '' : shown);
    if (title) labels.set(url, title);
  }
  return labels;
}

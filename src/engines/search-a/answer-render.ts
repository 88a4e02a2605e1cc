import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import type TurndownService from 'turndown';
import { turndown as loadTurndown, turndownGfm } from '../lazy-modules.js';
import { markdownToText } from '../common/markdown-text.js';
import { publisherUrl } from './google-links.js';

/** Elements that are chrome, not answer (upstreams.md 1.5 text hygiene, 3.2 secondary subtree). */
const NOISE =
  'style, script, template, noscript, svg, button, [role="button"], img[src^="data:"], [aria-hidden="true"], [data-subtree="aimba"], [role="dialog"]';

/** Feedback and control boilerplate that surrounds AI answers (whole-element text). */
const BOILERPLATE =
  /^(AI responses may include mistakes\.?(\s*Learn more)?|Learn more|Thank you|Share more feedback|Report a problem|Show more|Show less|Show all|Generative AI is experimental\.?|AI 대답에 실수가 있을 수 있습니다\.?(\s*자세히 알아보기)?|자세히 알아보기|더보기)$/i;

export interface RenderedAnswer {
  markdown: string;
  text: string;
}

/**
 * Renders an answer subtree to Markdown (headings, lists, GFM tables, links kept) and to plain text.
 * Works on a clone, so the caller's document keeps its source anchors; `prune` removes what the
 * caller knows is not answer (a heading, source cards) from that clone.
 */
export function renderAnswer($: CheerioAPI, body: Cheerio<Element>, pageUrl: string, prune?: (clone: Cheerio<Element>) => void): RenderedAnswer {
  const clone = body.clone();
  clone.find(NOISE).remove();
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
export function plainText(markdown: string): string {
  const flattened = markdown
    .split('\n')
    .filter((line) => !/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-{0,}:?\s*$/.test(line))
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
    .replace(/[ \t]+$/gm, '')
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
  const s = new (loadTurndown())({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', emDelimiter: '_' });
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
  const item = content.replace(/^\n+/, '').replace(/\n+$/, '').replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
  return prefix + item + (li.nextSibling ? '\n' : '');
}

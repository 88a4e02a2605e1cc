import type TurndownService from 'turndown';
import { turndown, turndownGfm } from '../lazy-modules.js';

/** Turndown's options as docs/engines.md#markdown-conversion sets them; the read bench's bare pipeline uses them. */
export const TURNDOWN_OPTIONS: TurndownService.Options = {
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '_',
  strongDelimiter: '**',
  linkStyle: 'inlined',
};

/** Turndown with those options and GFM tables, strikethrough and task lists. */
function createTurndown(): TurndownService {
  const td = new (turndown())(TURNDOWN_OPTIONS);
  td.use(turndownGfm().gfm);
  // Later rules win: GFM's cell rule lets block content (paragraphs, <br>) break the row.
  td.addRule('singleLineTableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const cell = content
        .replace(/(?<!\s)\s*\n+\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim();
      const first = node.parentNode?.firstChild === node;
      return `${first ? '| ' : ' '}${cell} |`;
    },
  });
  // Images without a usable URL were already removed; links wrapping nothing are noise.
  td.addRule('emptyLink', {
    filter: (node) => node.nodeName === 'A' && !node.textContent?.trim() && !(node as Element).querySelector?.('img'),
    replacement: () => '',
  });
  // Turndown's own rule pads bullets to four columns (`-   item`); one space is the common style.
  td.addRule('listItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const parent = node.parentNode as Element | null;
      let prefix = `${options.bulletListMarker ?? '-'} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1');
        prefix = `${(Number.isFinite(start) ? start : 1) + precedingItems(node)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/(?<!\n)\n+$/, '\n')
        .replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '');
    },
  });
  td.remove(['script', 'style', 'noscript', 'template']);
  return td;
}

/**
 * How many `li` siblings come before this one. Turndown's DOM is domino, whose `children` is not
 * iterable (spreading it threw on every ordered list), so the siblings are walked instead.
 */
function precedingItems(node: Node): number {
  let n = 0;
  for (let s = node.previousSibling; s; s = s.previousSibling) if (s.nodeName === 'LI') n++;
  return n;
}

let shared: TurndownService | null = null;

/**
 * Markdown of a cleaned article fragment (URLs already absolute): its markup, or the element itself, which Turndown
 * copies rather than serialising it and parsing the markup again with its own DOM.
 */
export function toMarkdown(html: string | Element): string {
  shared ??= createTurndown();
  // Turndown reads any element (it copies it and walks the copy); its types name only HTMLElement.
  return shared
    .turndown(html as string | HTMLElement)
    .replace(/(?<![ \t])[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const BLOCK = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TR',
  'UL',
]);

const LINE_ONLY = new Set(['BR', 'DD', 'DT', 'LI', 'TR']);

/**
 * Plain text of a cleaned article fragment: block elements become line breaks and table cells are
 * separated by tabs, so the text keeps the page's structure without Markdown escapes.
 */
export function toPlainText(root: Element): string {
  const parts: string[] = [];
  let inCell = 0;
  const walk = (node: Node) => {
    if (node.nodeType === 3) {
      parts.push((node.nodeValue ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    if (el.tagName === 'PRE') {
      parts.push('\n', el.textContent ?? '', '\n');
      return;
    }
    if (el.tagName === 'IMG') return;
    const cell = el.tagName === 'TD' || el.tagName === 'TH';
    // Inside a cell, blocks are separated by spaces so each table row stays on one line.
    const block = BLOCK.has(el.tagName) && inCell === 0;
    if (block) parts.push('\n');
    else if (inCell > 0 && BLOCK.has(el.tagName)) parts.push(' ');
    if (cell) inCell++;
    for (const child of el.childNodes) walk(child);
    if (cell) {
      inCell--;
      parts.push('\t');
    }
    // Rows and list items end with the next one's line break; other blocks get a blank line.
    if (block && !LINE_ONLY.has(el.tagName)) parts.push('\n');
  };
  walk(root);
  return parts
    .join('')
    .split('\n')
    .map((l) =>
      l
        .replace(/(?<![ \t])[ \t]+$/g, '')
        .replace(/^ +/, '')
        .replace(/\t +/g, '\t'),
    )
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

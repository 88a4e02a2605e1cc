import { NOT_ARTICLE } from './paragraph-block.js';

/** Page chrome whose prose is never the article. */
const CHROME_TAGS = new Set(['NAV', 'HEADER', 'FOOTER', 'ASIDE', 'FORM', 'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary']);
/** A paragraph or list item with fewer characters outside links than this is a label or a link, not prose. */
const MIN_BLOCK_PROSE = 30;
/**
 * Readability's pick is partial when it holds less than this share of the page's readable prose
 * (docs/engines.md#partial-pick).
 */
export const PARTIAL_SHARE = 0.6;
/** ... and leaves at least this many characters of prose outside it: a short page's sidebar is not an article. */
const PARTIAL_GAP = 1000;

/** The readable prose of a page or of an article: its paragraphs and list items outside chrome. */
export interface Prose {
  /** Characters outside links, summed over the blocks. */
  chars: number;
  /** Each block's text, whitespace collapsed. */
  blocks: string[];
}

/**
 * The prose of `root`: each `<p>` and `<li>` (a list item with its nested paragraphs and lists counted once) holding
 * at least MIN_BLOCK_PROSE characters outside links, outside page chrome (`nav`, `header`, `footer`, `aside`, `form`,
 * their ARIA roles) and outside blocks whose class or id names comments, sidebars, related lists or promotions (a
 * wrapper named "with-sidebar" is left out whole: the pick then does not read partial, and nothing changes). One
 * walk over the tree: a counted block is not descended into, so each node is read once.
 */
export function readableProse(root: Element): Prose {
  const out: Prose = { chars: 0, blocks: [] };
  const stack: Element[] = [...root.children].reverse();
  for (let el = stack.pop(); el; el = stack.pop()) {
    if (CHROME_TAGS.has(el.tagName) || CHROME_ROLES.has(el.getAttribute('role') ?? '')) continue;
    if (NOT_ARTICLE.test(`${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`)) continue;
    if (el.tagName === 'P' || el.tagName === 'LI') {
      const text = collapse(el.textContent ?? '');
      let links = 0;
      for (const a of el.querySelectorAll('a')) links += collapse(a.textContent ?? '').length;
      const prose = text.length - links;
      if (prose >= MIN_BLOCK_PROSE) {
        out.chars += prose;
        out.blocks.push(text);
      }
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i];
      if (child) stack.push(child);
    }
  }
  return out;
}

/** Readability's pick holds only a small share of the page's prose while much of it lies elsewhere. */
export function isPartialPick(pick: Prose, page: Prose): boolean {
  return pick.chars < PARTIAL_SHARE * page.chars && page.chars - pick.chars >= PARTIAL_GAP;
}

/**
 * A wider read is taken when it holds more prose than the first pick and keeps at least four in five of the first
 * pick's blocks: it widens the article, it does not swap it for another block of the page.
 */
export function widens(wider: Prose, first: Prose): boolean {
  if (wider.chars <= first.chars) return false;
  const have = new Set(wider.blocks);
  let kept = 0;
  for (const b of first.blocks) if (have.has(b)) kept++;
  return kept >= 0.8 * first.blocks.length;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

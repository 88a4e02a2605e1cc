import { NOT_ARTICLE } from './paragraph-block.js';

/** Page chrome whose prose is never the article. */
const CHROME_TAGS = new Set(['NAV', 'HEADER', 'FOOTER', 'ASIDE', 'FORM', 'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary']);
/** A paragraph or list item with fewer characters outside links than this is a label or a link, not prose. */
const MIN_BLOCK_PROSE = 30;
const HEADINGS = 'h1, h2, h3, h4, h5, h6';
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
  walkProse(root, (_, text, prose) => {
    out.chars += prose;
    out.blocks.push(text);
  });
  return out;
}

/** The walk of `readableProse`: `visit` sees each prose block with its text (whitespace collapsed) and prose. */
function walkProse(root: Element, visit: (el: Element, text: string, prose: number) => void): void {
  const stack: Element[] = [...root.children].reverse();
  for (let el = stack.pop(); el; el = stack.pop()) {
    if (CHROME_TAGS.has(el.tagName) || CHROME_ROLES.has(el.getAttribute('role') ?? '')) continue;
    if (NOT_ARTICLE.test(`${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`)) continue;
    if (el.tagName === 'P' || el.tagName === 'LI') {
      const text = collapse(el.textContent ?? '');
      let links = 0;
      for (const a of el.querySelectorAll('a')) links += collapse(a.textContent ?? '').length;
      const prose = text.length - links;
      if (prose >= MIN_BLOCK_PROSE) visit(el, text, prose);
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i];
      if (child) stack.push(child);
    }
  }
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

/** Where Readability's pick sits in the page, and the region around it that holds the article's share of prose. */
export interface ProseRegion {
  /** The page's element that holds Readability's pick. */
  pick: Element;
  /** Its lowest ancestor holding PARTIAL_SHARE of the page's prose. */
  region: Element;
}

/**
 * The element of the page (`body` of a fresh parse) that holds Readability's pick, the deepest one holding four in
 * five of the pick's blocks found there (half of them at least must be found: Readability edits some paragraphs),
 * and its lowest ancestor below `body` holding PARTIAL_SHARE of the page's prose; null when the pick is not found or
 * only `body` holds that share. Linear: the counts are summed up the tree in one pass over the elements in reverse
 * document order.
 */
export function proseRegion(body: Element, pick: Prose, page: Prose): ProseRegion | null {
  const picked = new Set(pick.blocks);
  const inPick = new Map<Element, number>();
  const prose = new Map<Element, number>();
  let found = 0;
  walkProse(body, (el, text, chars) => {
    prose.set(el, chars);
    if (picked.has(text)) {
      inPick.set(el, 1);
      found++;
    }
  });
  if (found === 0 || found < 0.5 * pick.blocks.length) return null;
  const all = body.querySelectorAll('*');
  for (let i = all.length - 1; i >= 0; i--) {
    const el = all[i];
    const parent = el?.parentElement;
    if (!el || !parent) continue;
    const n = inPick.get(el);
    if (n) inPick.set(parent, (inPick.get(parent) ?? 0) + n);
    const c = prose.get(el);
    if (c) prose.set(parent, (prose.get(parent) ?? 0) + c);
  }
  let at: Element = body;
  for (let next: Element | null = body; next; ) {
    at = next;
    next = null;
    for (const child of at.children) if ((inPick.get(child) ?? 0) >= 0.8 * found) next = child;
  }
  let region = at;
  while ((prose.get(region) ?? 0) < PARTIAL_SHARE * page.chars) {
    const parent = region.parentElement;
    if (!parent || parent === body || parent.tagName === 'HTML') return null;
    region = parent;
  }
  return region === at ? null : { pick: at, region };
}

/**
 * A sibling on the path from the region down to the pick continues the article when it is a heading, holds no text
 * (an image, a spacer), or is a block of the same kind as the path's own (same tag, half its class words in common:
 * the next section of a guide, the next row of a page builder) that reads as prose. Half, not one: a utility-class
 * layout's sidebar column shares a few words (`w-full`, `flex`) with the main column.
 */
export function continuesArticle(sib: Element, path: Element): boolean {
  if (/^H[1-6]$/.test(sib.tagName) || textLength(sib) === 0) return true;
  if (sib.tagName !== path.tagName) return false;
  const own = new Set((path.getAttribute('class') ?? '').split(/\s+/).filter(Boolean));
  const theirs = new Set((sib.getAttribute('class') ?? '').split(/\s+/).filter(Boolean));
  let shared = 0;
  for (const c of theirs) if (own.has(c)) shared++;
  const union = own.size + theirs.size - shared;
  return (union === 0 || shared >= 0.5 * union) && readsAsProse(sib);
}

/**
 * A block that is not a list of links or of cards: under three quarters of its text is link text (paragraphs dense with
 * links stay), it holds fewer than two `<article>`s and fewer than two headings that are
 * links (a teaser list's headlines).
 */
function readsAsProse(el: Element): boolean {
  const text = textLength(el);
  let links = 0;
  for (const a of el.querySelectorAll('a')) links += textLength(a);
  if (links >= 0.75 * text || el.querySelectorAll('article').length >= 2) return false;
  // A heading inside a link, or one whose text is mostly a link's (links do not nest, so each is counted once).
  let linkHeadings = 0;
  for (const a of el.querySelectorAll('a')) linkHeadings += a.querySelectorAll(HEADINGS).length;
  for (const h of el.querySelectorAll(HEADINGS)) {
    let inLinks = 0;
    for (const a of h.querySelectorAll('a')) inLinks += textLength(a);
    if (inLinks > 0 && inLinks >= 0.5 * textLength(h)) linkHeadings++;
  }
  return linkHeadings < 2;
}

/**
 * Removes from `root` the prose blocks (as `readableProse` finds them) whose text is one of `texts`: the blocks
 * Readability's article holds already.
 */
export function removeProseBlocks(root: Element, texts: ReadonlySet<string>): void {
  const found: Element[] = [];
  walkProse(root, (el, text) => {
    if (texts.has(text)) found.push(el);
  });
  for (const el of found) el.remove();
}

function textLength(el: Element): number {
  return collapse(el.textContent ?? '').length;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * The blocks of an article and what the boilerplate-block model reads of each (docs/real-inputs.md, "Fifth round").
 * A block is a leaf block element (a paragraph, a list item, a heading, a table, a `div` holding only inline
 * content…): one that holds no other block element. Every feature is a property of the markup and the text's shape
 * (lengths, links, punctuation, digits, nesting, position, neighbours), never a word or a class name, so the model
 * reads pages in any language. One walk over the tree gathers the counts; the cost is linear in the article's size.
 */

/** Elements that start a block of their own. */
const BLOCK_TAGS = new Set([
  'P',
  'LI',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'BLOCKQUOTE',
  'PRE',
  'TABLE',
  'FIGURE',
  'FIGCAPTION',
  'DT',
  'DD',
  'DIV',
  'SECTION',
  'ASIDE',
  'ARTICLE',
  'HEADER',
  'FOOTER',
  'MAIN',
  'NAV',
  'UL',
  'OL',
  'DL',
  'FORM',
  'FIELDSET',
  'DETAILS',
  'SUMMARY',
  'ADDRESS',
  'CENTER',
]);
/** Blocks read whole: a table's or a code block's cells and lines are not blocks of their own. */
const ATOMIC = new Set(['TABLE', 'PRE']);
/** Boxes that set their content apart from the running text. */
const BOX_TAGS = new Set(['ASIDE', 'DETAILS', 'FIGURE', 'FOOTER', 'HEADER', 'NAV', 'FORM', 'FIELDSET']);
const CONTROL_TAGS = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'FORM', 'IFRAME', 'svg', 'SVG']);
const EMPHASIS_TAGS = new Set(['STRONG', 'B', 'EM', 'I', 'SMALL']);

/** Sentence-ending punctuation of any script (`.`, `。`, `।`, `؟`…). */
const TERMINAL = /\p{Sentence_Terminal}/gu;
const ENDS_SENTENCE = /\p{Sentence_Terminal}[\p{Pe}\p{Pf}"'\s]{0,3}$/u;
const DIGIT = /\p{Nd}/gu;
const CURRENCY = /\p{Sc}/u;
/** A word that starts with a capital letter (scripts without case have none). */
const CAPITALISED = /^\p{Lu}/u;
const CASED = /^\p{L}/u;
const ADDRESS_MARK = /https?:\/\/|www\.|@\w/;
const SEPARATORS = /[|•·►»→]/gu;

/** The names of the features, in the order `features` lists them (the model's weights follow this order). */
export const FEATURE_NAMES = [
  'log chars',
  'log words',
  'link density',
  'ends sentence',
  'terminals per 100 chars',
  'chars before share',
  'chars share',
  'heading',
  'list item',
  'paragraph',
  'blockquote',
  'table or code',
  'other tag',
  'in list',
  'in box',
  'in blockquote',
  'depth',
  'controls in parent',
  'images in block',
  'digit share',
  'currency',
  'capitalised word share',
  'repeated in article',
  'parent chars share',
  'parent blocks',
  'parent link density',
  'grandparent chars share',
  'previous log chars',
  'previous link density',
  'previous ends sentence',
  'next log chars',
  'next link density',
  'next ends sentence',
  'ends with colon',
  'question marks',
  'emphasis share',
  'block index share',
  'log chars to median',
  'address mark',
  'separators',
  'first in parent',
  'last in parent',
  'images in parent',
  'controls in grandparent',
  'blocks after share',
  'log article chars',
  'log article blocks',
  'box chars share',
  'box blocks',
  'box link density',
  'box controls',
  'box images',
  'box headings',
  'box sentence share',
  'index in box share',
  'box chars before share',
  'box is the block',
] as const;

/** A box is the largest ancestor of a block holding at most this share of the article's text. */
const BOX_SHARE = 0.25;

export interface ArticleBlock {
  el: Element;
  /** The block's text, whitespace collapsed. */
  text: string;
  features: number[];
}

interface Counts {
  chars: number;
  linkChars: number;
  emphasisChars: number;
  controls: number;
  images: number;
  blocks: number;
  headings: number;
  /** Blocks that end a sentence. */
  sentences: number;
}

interface Leaf {
  el: Element;
  text: string;
  counts: Counts;
  depth: number;
  inList: boolean;
  inBox: boolean;
  inQuote: boolean;
}

function zero(): Counts {
  return { chars: 0, linkChars: 0, emphasisChars: 0, controls: 0, images: 0, blocks: 0, headings: 0, sentences: 0 };
}

function add(to: Counts, c: Counts): void {
  to.chars += c.chars;
  to.linkChars += c.linkChars;
  to.emphasisChars += c.emphasisChars;
  to.controls += c.controls;
  to.images += c.images;
  to.blocks += c.blocks;
  to.headings += c.headings;
  to.sentences += c.sentences;
}

/** The leaf blocks of `root` in document order, with each element's counts. */
function collect(root: Element): { leaves: Leaf[]; counts: Map<Element, Counts> } {
  const leaves: Leaf[] = [];
  const counts = new Map<Element, Counts>();
  // Whether each element holds a block element is read bottom-up in the same walk.
  const walk = (el: Element, depth: number, inList: boolean, inBox: boolean, inQuote: boolean): [Counts, boolean] => {
    const own = zero();
    let hasBlock = false;
    const tag = el.tagName;
    if (CONTROL_TAGS.has(tag)) own.controls++;
    if (tag === 'IMG' || tag === 'PICTURE' || tag === 'VIDEO') own.images++;
    const atomic = ATOMIC.has(tag);
    const list = inList || tag === 'UL' || tag === 'OL';
    const box = inBox || BOX_TAGS.has(tag);
    const quote = inQuote || tag === 'BLOCKQUOTE';
    for (const node of el.childNodes) {
      if (node.nodeType === 3) {
        const n = (node.nodeValue ?? '').replace(/\s+/g, ' ').trim().length;
        own.chars += n;
      } else if (node.nodeType === 1) {
        const child = node as Element;
        const [c, childHasBlock] = walk(child, depth + 1, list, box, quote);
        if (child.tagName === 'A') c.linkChars = c.chars;
        if (EMPHASIS_TAGS.has(child.tagName)) c.emphasisChars = c.chars;
        add(own, c);
        if (!atomic && (childHasBlock || BLOCK_TAGS.has(child.tagName))) hasBlock = true;
      }
    }
    if (BLOCK_TAGS.has(tag) && !hasBlock && own.chars > 0) {
      own.blocks++;
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (/^H[1-6]$/.test(tag)) own.headings++;
      if (ENDS_SENTENCE.test(text)) own.sentences++;
      leaves.push({ el, text, counts: { ...own }, depth, inList, inBox, inQuote });
    }
    counts.set(el, own);
    return [own, hasBlock];
  };
  walk(root, 0, false, false, false);
  // The walk appends a block when it leaves it; nested leaves cannot occur, so this is document order.
  return { leaves, counts };
}

function tagGroup(tag: string): number {
  if (/^H[1-6]$/.test(tag)) return 0;
  if (tag === 'LI' || tag === 'DT' || tag === 'DD') return 1;
  if (tag === 'P') return 2;
  if (tag === 'BLOCKQUOTE') return 3;
  if (ATOMIC.has(tag)) return 4;
  return 5;
}

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** The article's leaf blocks and their features (see FEATURE_NAMES). */
export function articleBlocks(root: Element): ArticleBlock[] {
  const { leaves, counts } = collect(root);
  const total = Math.max(1, counts.get(root)?.chars ?? 1);
  const seen = new Map<string, number>();
  for (const l of leaves) seen.set(l.text, (seen.get(l.text) ?? 0) + 1);
  const med = Math.max(1, median(leaves.map((l) => l.counts.chars)));
  const shape = leaves.map((l) => ({
    logChars: Math.log1p(l.counts.chars),
    linkDensity: l.counts.linkChars / Math.max(1, l.counts.chars),
    endsSentence: ENDS_SENTENCE.test(l.text) ? 1 : 0,
  }));
  let before = 0;
  const n = leaves.length;
  // Each element's first block and the text before it, set from the first block met inside it.
  const firstLeaf = new Map<Element, { index: number; before: number }>();
  let running = 0;
  leaves.forEach((l, i) => {
    for (let a: Element | null = l.el; a && !firstLeaf.has(a); a = a === root ? null : a.parentElement) {
      firstLeaf.set(a, { index: i, before: running });
    }
    running += l.counts.chars;
  });
  const boxOf = (el: Element): Element => {
    let box = el;
    for (let a = el.parentElement; a && a !== root; a = a.parentElement) {
      if ((counts.get(a)?.chars ?? 0) > total * BOX_SHARE) break;
      box = a;
    }
    return box;
  };
  return leaves.map((l, i) => {
    const c = l.counts;
    const chars = Math.max(1, c.chars);
    const tokens = l.text.split(' ');
    let cased = 0;
    let capitalised = 0;
    for (const t of tokens) {
      if (!CASED.test(t)) continue;
      cased++;
      if (CAPITALISED.test(t)) capitalised++;
    }
    const parent = l.el.parentElement;
    const pc = (parent && counts.get(parent)) || c;
    const grand = parent?.parentElement;
    const gc = (grand && counts.get(grand)) || pc;
    const group = tagGroup(l.el.tagName);
    const prev = shape[i - 1];
    const next = shape[i + 1];
    const self = shape[i] ?? { logChars: 0, linkDensity: 0, endsSentence: 0 };
    const box = boxOf(l.el);
    const bc = counts.get(box) ?? c;
    const bf = firstLeaf.get(box) ?? { index: i, before };
    const f = [
      self.logChars,
      Math.log1p(tokens.length),
      self.linkDensity,
      self.endsSentence,
      Math.min(10, (100 * (l.text.match(TERMINAL)?.length ?? 0)) / chars),
      before / total,
      c.chars / total,
      group === 0 ? 1 : 0,
      group === 1 ? 1 : 0,
      group === 2 ? 1 : 0,
      group === 3 ? 1 : 0,
      group === 4 ? 1 : 0,
      group === 5 ? 1 : 0,
      l.inList ? 1 : 0,
      l.inBox ? 1 : 0,
      l.inQuote ? 1 : 0,
      Math.min(30, l.depth),
      Math.min(10, pc.controls),
      Math.min(10, c.images),
      (l.text.match(DIGIT)?.length ?? 0) / chars,
      CURRENCY.test(l.text) ? 1 : 0,
      cased ? capitalised / cased : 0,
      (seen.get(l.text) ?? 1) > 1 ? 1 : 0,
      pc.chars / total,
      Math.log1p(pc.blocks),
      pc.linkChars / Math.max(1, pc.chars),
      gc.chars / total,
      prev ? prev.logChars : -1,
      prev ? prev.linkDensity : -1,
      prev ? prev.endsSentence : -1,
      next ? next.logChars : -1,
      next ? next.linkDensity : -1,
      next ? next.endsSentence : -1,
      /[:：]$/.test(l.text) ? 1 : 0,
      Math.min(5, l.text.split(/[?？]/).length - 1),
      c.emphasisChars / chars,
      n > 1 ? i / (n - 1) : 0,
      Math.log(chars / med),
      ADDRESS_MARK.test(l.text) ? 1 : 0,
      Math.min(10, l.text.match(SEPARATORS)?.length ?? 0),
      parent?.firstElementChild === l.el ? 1 : 0,
      parent?.lastElementChild === l.el ? 1 : 0,
      Math.min(10, pc.images),
      Math.min(10, gc.controls),
      n > 1 ? (n - 1 - i) / (n - 1) : 0,
      Math.log1p(total),
      Math.log1p(n),
      bc.chars / total,
      Math.log1p(bc.blocks),
      bc.linkChars / Math.max(1, bc.chars),
      Math.min(10, bc.controls),
      Math.min(10, bc.images),
      Math.min(10, bc.headings),
      bc.sentences / Math.max(1, bc.blocks),
      bc.blocks > 1 ? (i - bf.index) / (bc.blocks - 1) : 0,
      bf.before / total,
      box === l.el ? 1 : 0,
    ];
    before += c.chars;
    return { el: l.el, text: l.text, features: f };
  });
}

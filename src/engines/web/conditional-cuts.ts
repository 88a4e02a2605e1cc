/**
 * What Readability's conditional cleaning removes from its article, kept aside instead of thrown away
 * (docs/engines.md#partial-pick): each block `_cleanConditionally` would remove is swapped for a placeholder element
 * that Readability's markup then carries, so that a block that reads as article (a ranking card, an accordion, a
 * listicle's header) can be put back in its place. The hook wraps two private methods of @mozilla/readability 0.6.0;
 * it costs no parse and no pass over the page beyond the cleaning's own.
 */

/** The placeholder's tag: no page uses it. */
const CUT_TAG = 'aeq-cut';
const CUT_ID = 'data-aeq-cut';

type RemoveFilter = (this: unknown, node: Element, i: number, list: ArrayLike<Element>) => boolean;

/** The private steps of Readability 0.6.0 the hook wraps. */
interface ReadabilityInternals {
  _cleanConditionally(e: Element, tag: string): void;
  _removeNodes(list: ArrayLike<Element>, filter?: RemoveFilter): void;
}

/**
 * Hooks `reader` (a Readability instance, before `parse()`) so that its conditional cleaning leaves a placeholder
 * where it removes a block; returns the removed blocks by placeholder id. A Readability version without these methods
 * is left as it is (the map stays empty).
 */
export function keepConditionalCuts(reader: object): Map<string, Element> {
  const cuts = new Map<string, Element>();
  const r = reader as Partial<ReadabilityInternals>;
  const clean = r._cleanConditionally;
  const remove = r._removeNodes;
  if (typeof clean !== 'function' || typeof remove !== 'function') return cuts;
  const keep = function (this: ReadabilityInternals, list: ArrayLike<Element>, filter?: RemoveFilter): void {
    // As Readability's own `_removeNodes`: backwards, so the filter sees each node before its ancestors change.
    for (let i = list.length - 1; i >= 0; i--) {
      const node = list[i];
      const parent = node?.parentNode;
      if (!node || !parent || (filter && !filter.call(this, node, i, list))) continue;
      const mark = node.ownerDocument.createElement(CUT_TAG);
      const id = String(cuts.size);
      mark.setAttribute(CUT_ID, id);
      cuts.set(id, node);
      parent.replaceChild(mark, node);
    }
  };
  r._cleanConditionally = function (this: ReadabilityInternals, e: Element, tag: string): void {
    this._removeNodes = keep;
    try {
      clean.call(this, e, tag);
    } finally {
      this._removeNodes = remove;
    }
  };
  return cuts;
}

/**
 * A removed block's text, link text, readable prose and headlines that are links, with the blocks removed inside it
 * before it counted in.
 */
export interface CutSize {
  text: number;
  links: number;
  prose: number;
  linkHeadings: number;
}

/**
 * Puts back what Readability's conditional cleaning removed from `root` (its article parsed again) when the removed
 * blocks read as article and hold, together, at least `minProse` characters of readable prose; otherwise, and for
 * each removed block that does not read as article, the placeholder is removed. A removed block reads as article
 * when `reads(block)` holds; a block holding other removed blocks (a section whose lists were removed first) is
 * measured with them. Returns the prose put back. Each removed block is measured once.
 */
export function restoreCuts(
  root: Element,
  cuts: ReadonlyMap<string, Element>,
  minProse: number,
  reads: (block: Element, size: CutSize) => boolean,
  measure: (block: Element) => { prose: number; linkHeadings: number },
): number {
  const sizes = new Map<string, CutSize>();
  // A block is measured after the blocks removed inside it: those were removed first, so their ids are lower.
  for (const [id, block] of cuts) {
    const size: CutSize = { text: textLength(block), links: 0, ...measure(block) };
    for (const a of block.querySelectorAll('a')) size.links += textLength(a);
    for (const mark of block.querySelectorAll(CUT_TAG)) {
      const inner = sizes.get(mark.getAttribute(CUT_ID) ?? '');
      if (!inner) continue;
      size.text += inner.text;
      size.links += inner.links;
      size.prose += inner.prose;
      size.linkHeadings += inner.linkHeadings;
    }
    sizes.set(id, size);
  }
  const isArticle = (block: Element | undefined, size: CutSize | undefined): block is Element =>
    !!block && !!size && reads(block, size);
  let total = 0;
  for (const mark of root.querySelectorAll(CUT_TAG)) {
    const id = mark.getAttribute(CUT_ID) ?? '';
    const size = sizes.get(id);
    if (isArticle(cuts.get(id), size) && size) total += size.prose;
  }
  const back = resolveCuts(root, cuts, (id, block) => total >= minProse && isArticle(block, sizes.get(id)));
  return back.length ? total : 0;
}

/**
 * Resolves the placeholders in `root` (Readability's article parsed again): a removed block for which `restore` holds
 * is put back in its place (and the placeholders inside it resolved the same way), any other placeholder is removed.
 * Returns the blocks put back. The blocks belong to Readability's document; they are imported into `root`'s.
 */
export function resolveCuts(
  root: Element,
  cuts: ReadonlyMap<string, Element>,
  restore: (id: string, block: Element) => boolean,
): Element[] {
  const back: Element[] = [];
  const stack = [...root.querySelectorAll(CUT_TAG)];
  for (let mark = stack.pop(); mark; mark = stack.pop()) {
    const id = mark.getAttribute(CUT_ID) ?? '';
    const block = cuts.get(id);
    if (!block || !restore(id, block)) {
      mark.remove();
      continue;
    }
    const copy = root.ownerDocument.importNode(block, true);
    mark.replaceWith(copy);
    back.push(copy);
    stack.push(...copy.querySelectorAll(CUT_TAG));
  }
  return back;
}

function textLength(el: Element): number {
  return (el.textContent ?? '').replace(/\s+/g, ' ').trim().length;
}

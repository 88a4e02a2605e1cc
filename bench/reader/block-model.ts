/**
 * The block classifier tried as a boilerplate-block cleanup rule (docs/real-inputs.md, "Fifth round"): boosted
 * decision trees read each leaf block of Readability's article once the cleanup rules have run (block-features.ts)
 * and score how likely it is to be no article text. Trained and judged by train-block-model.ts on the development
 * slices; not part of the reader, as it did not beat the rules without removing article text.
 */
import { FEATURE_NAMES } from './block-features.js';

/**
 * A tree as a flat list of nodes: `[feature, split, left, right]` sends a block left when its feature is at most
 * `split`; `[-1, value, 0, 0]` is a leaf adding `value` to the score (log-odds of boilerplate).
 */
export type Tree = ReadonlyArray<readonly [number, number, number, number]>;

export interface BlockModel {
  base: number;
  trees: readonly Tree[];
  /** A block goes when its probability of being boilerplate is at least this. */
  threshold: number;
  /** Blocks shorter than this many characters are left alone (the model was not trained on them). */
  minChars: number;
}

/** The model removes at most this share of the article's text; a page it would cut more of keeps every block. */
export const MAX_REMOVED_SHARE = 0.3;

/**
 * A table or a code block is never removed: the model scores it (a box's offer table, a code sample the annotators
 * left out), but data tables and code are article text on most pages that have them.
 */
const TABLE_OR_CODE = FEATURE_NAMES.indexOf('table or code');

/** Whether the model may remove a block at all: long enough, and not a table or a code block. */
export function removable(text: string, f: readonly number[], model: BlockModel): boolean {
  return text.length >= model.minChars && f[TABLE_OR_CODE] !== 1;
}

function treeValue(tree: Tree, f: readonly number[]): number {
  let i = 0;
  for (let guard = 0; guard < tree.length; guard++) {
    const node = tree[i];
    if (!node) return 0;
    const [feature, split, left, right] = node;
    if (feature < 0) return split;
    i = (f[feature] ?? 0) <= split ? left : right;
  }
  return 0;
}

/** The model's probability that a block with these features is boilerplate. */
export function boilerplateProbability(f: readonly number[], model: BlockModel): number {
  let z = model.base;
  for (const t of model.trees) z += treeValue(t, f);
  return 1 / (1 + Math.exp(-z));
}

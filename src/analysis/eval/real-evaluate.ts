import type { SourceInfluenceConfig } from '../config.js';
import type { EvalSet } from './eval-set.js';
import { evaluate, type ItemRun } from './evaluate.js';
import type { RealPair } from './real-sets.js';

/**
 * A real set's pairs through the same path as the written set (evaluate.ts: the claim is a one-sentence answer that
 * cites its page, the page a read page), one claim per pair. The train split is the written set's calibration split.
 */
export function runRealPairs(
  pairs: readonly RealPair[],
  cfg: SourceInfluenceConfig,
  onProgress?: (done: number, total: number) => void,
): Array<{ pair: RealPair; run: ItemRun }> {
  const out: Array<{ pair: RealPair; run: ItemRun }> = [];
  pairs.forEach((pair, i) => {
    const pageId = `${pair.set}:${pair.id}`;
    const set: EvalSet = {
      language: pair.language,
      pages: new Map([[pageId, { id: pageId, url: `https://eval.invalid/${pair.set}/${pair.id}`, ...pair.page }]]),
      items: [
        {
          id: pair.id,
          split: pair.split === 'train' ? 'calibration' : 'heldout',
          claim: pair.claim,
          cited: [pageId],
          sources: [{ page: pageId, label: pair.gold }],
          kind: pair.set,
        },
      ],
    };
    const run = evaluate(set, 'all', cfg).runs[0];
    if (run) out.push({ pair, run });
    if (onProgress && (i + 1) % 50 === 0) onProgress(i + 1, pairs.length);
  });
  return out;
}

/** How the real-page corpora score a text against the article text a page is expected to yield. */

/** A run of letters and digits of any script. */
const RUN = /[\p{L}\p{N}]+/gu;
/** Scripts written without spaces between words: a run of them is a clause, not a word. */
const UNSPACED_SCRIPT = new RegExp(
  '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}' +
    '\\p{Script=Myanmar}]',
  'u',
);
const SEGMENTER = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Lower-cased word tokens, as the article-extraction benchmarks count them: runs of letters and digits of any script;
 * a run in a script written without spaces (Chinese, Japanese, Thai, …) is split into the words Unicode segmentation
 * finds (`Intl.Segmenter`), so that a Japanese clause counts as its words and not as one "word". Every extractor's
 * text and every expected text is split the same way.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const run of text.toLowerCase().match(RUN) ?? []) {
    if (!UNSPACED_SCRIPT.test(run)) {
      out.push(run);
      continue;
    }
    for (const s of SEGMENTER.segment(run)) if (s.isWordLike) out.push(s.segment);
  }
  return out;
}

/** Bag-of-words precision, recall and F1 of `actual` against `expected` (multiset overlap). */
export function bagOfWordsF1(expected: string, actual: string): { precision: number; recall: number; f1: number } {
  const want = new Map<string, number>();
  for (const w of words(expected)) want.set(w, (want.get(w) ?? 0) + 1);
  const got = words(actual);
  let hit = 0;
  const left = new Map(want);
  for (const w of got) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      hit++;
      left.set(w, n - 1);
    }
  }
  const expectedCount = [...want.values()].reduce((a, b) => a + b, 0);
  if (expectedCount === 0 && got.length === 0) return { precision: 1, recall: 1, f1: 1 };
  const precision = got.length ? hit / got.length : 0;
  const recall = expectedCount ? hit / expectedCount : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

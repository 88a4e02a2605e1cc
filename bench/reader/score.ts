/** How the real-page corpora score a text against the article text a page is expected to yield. */

/** Lower-cased word tokens (letters and digits of any script), as the article-extraction benchmarks count them. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
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

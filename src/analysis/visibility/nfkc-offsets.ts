/**
 * NFKC with a way back to the original offsets (§6.1). Names are matched on the NFKC form (full-width ＮＩＫＥ,
 * decomposed é and conjoining Hangul jamo compare equal to their usual forms), but the spans are reported in the
 * caller's text, so a dashboard can highlight `text.slice(start, end)` without normalising again.
 */
export interface NormalizedText {
  /** The NFKC form of the text, normalised cluster by cluster (see `CLUSTER`). */
  readonly text: string;
  /** The original offset where the normalised character at `i` begins. */
  sourceStart(i: number): number;
  /** The original offset just after the normalised character at `i`. */
  sourceEnd(i: number): number;
}

/**
 * A starter and what NFKC may compose onto it: combining marks, Hangul vowel and final jamo (ᄀ+ᅡ+ᆨ → 각) and the
 * half-width voiced marks (ｶﾞ → ガ). These are grapheme clusters for the purpose of NFKC, found with one regular
 * expression because Intl.Segmenter was two orders of magnitude slower on long answers.
 */
const CLUSTER = /.[\p{M}\u1160-\u11FF\uD7B0-\uD7FF\uFF9E\uFF9F]*/gsu;

export function normalizeWithOffsets(original: string): NormalizedText {
  const text = original.normalize('NFKC');
  // Most answers are already NFKC: the offsets are then the same, and the mapping below is skipped.
  if (text === original) return { text, sourceStart: (i) => i, sourceEnd: (i) => i + 1 };
  // NFKC composes only within such a cluster, so normalising cluster by cluster gives the NFKC text and tells which
  // original cluster each normalised character came from.
  const starts: number[] = [];
  const ends: number[] = [];
  let rebuilt = '';
  for (const m of original.matchAll(CLUSTER)) {
    const piece = m[0].normalize('NFKC');
    rebuilt += piece;
    for (let k = 0; k < piece.length; k++) {
      starts.push(m.index);
      ends.push(m.index + m[0].length);
    }
  }
  return {
    text: rebuilt,
    sourceStart: (i) => starts[i] ?? original.length,
    sourceEnd: (i) => ends[i] ?? original.length,
  };
}

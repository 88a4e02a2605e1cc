/**
 * Questions that read the same are one question (§3.6 after §3.8). Clusters merge near-duplicate queries, but
 * different queries can still be given the same text: `running shoes review` and `running shoes reviews` both
 * become "What do reviews say about running shoes?", `X price` and `X cost` one "How much …?", and with the year
 * taken from the clock `X 2024` and `X 2025` one "… in 2026?". A result listed it twice, and a monitor built from
 * it asked it twice. Texts are compared by a key that ignores case, punctuation, whitespace runs and the spacing of
 * Hangul (`강아지사료 추천해줘` is `강아지 사료 추천해줘`).
 */

const HANGUL = '\\p{Script=Hangul}';
const PUNCTUATION = /[\p{P}\p{S}]+/gu;
/**
 * A space beside a Hangul syllable: Korean spacing varies between writers, the words do not. A run
 * before one is matched from its first space (the lookbehind), so a long run is scanned once.
 */
const HANGUL_SPACE = new RegExp(`(?<=${HANGUL}) +|(?<! ) +(?=${HANGUL})`, 'gu');

/** The comparison key of a question's text. */
export function questionKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(PUNCTUATION, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(HANGUL_SPACE, '');
}

/**
 * The items in order, each text once: an item whose text has the key of an earlier one is dropped, and its
 * `absorb` callback receives it with the kept one (to keep its query as a variant). Order is the ranking, so the
 * better-ranked item stays.
 */
export function uniqueByText<T extends { text: string }>(
  items: readonly T[],
  absorb: (kept: T, dropped: T) => void,
): T[] {
  const seen = new Map<string, T>();
  const out: T[] = [];
  for (const item of items) {
    const key = questionKey(item.text);
    const kept = seen.get(key);
    if (kept) {
      absorb(kept, item);
      continue;
    }
    seen.set(key, item);
    out.push(item);
  }
  return out;
}

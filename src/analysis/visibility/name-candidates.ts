import type { MarkupSpan } from './name-markup.js';
import { type CapitalRun, foldWord, type ScannedText, type ScannedWord } from './name-scan.js';
import { KOREAN_NOT_NAMES, KOREAN_SENTENCE_ENDS, NAME_STOPWORDS, PLACES } from './name-stoplists.js';

/**
 * Which scanned runs and spans are names (§6.8), and the key that merges their variants. The rules use only the
 * text of the group of answers: no model, no dictionary beyond the stop lists of `name-stoplists.ts`.
 */

/** One place where an answer names something. */
export interface NameOccurrence {
  /** The merge key: NFKC, lower case, possessive `'s` and trailing numbers dropped (Hoka Clifton 9 → hoka clifton). */
  key: string;
  /** The words of the key. */
  words: string[];
  /** As shown: as written, NFKC, spaces collapsed, without the trailing numbers. */
  display: string;
  /** As written with its numbers (Hoka Clifton 9): one variant of the name. */
  written: string;
  start: number;
  end: number;
}

/** What the whole group of answers says about words, for the rules on capitals at the start of a sentence. */
export interface GroupEvidence {
  /** Words the group writes in lower case somewhere (overall, running): common words. */
  lowerWords: ReadonlySet<string>;
  /** Words the group capitalises in the middle of a sentence somewhere: names even where they open one. */
  midSentenceCapitals: ReadonlySet<string>;
}

export function groupEvidence(scans: readonly ScannedText[]): GroupEvidence {
  return {
    lowerWords: new Set(scans.flatMap((s) => s.lowerWords)),
    midSentenceCapitals: new Set(scans.flatMap((s) => s.midSentenceCapitals)),
  };
}

/** The names of one scanned text, in text order and never overlapping. */
export function namesIn(text: string, scan: ScannedText, evidence: GroupEvidence): NameOccurrence[] {
  const fromSpans = scan.spans.flatMap((s) => {
    const name = spanName(s);
    return name ? [name] : [];
  });
  const fromRuns = scan.runs.flatMap((r) => {
    const name = runName(text, r, evidence);
    return name ? [name] : [];
  });
  // A Korean span holds the Latin words inside it (나이키 Pegasus 40): the span is the name, not its Latin part.
  const all = [...fromSpans, ...fromRuns].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: NameOccurrence[] = [];
  for (const n of all) {
    const last = out[out.length - 1];
    if (!last || n.start >= last.end) out.push(n);
  }
  return out;
}

/** A word the stop lists hold, a number, or (with `evidence`) one the group writes in lower case. */
function common(w: ScannedWord, evidence?: GroupEvidence): boolean {
  if (w.kind === 'number') return true;
  const folded = foldWord(w.text);
  return NAME_STOPWORDS.has(folded) || (evidence?.lowerWords.has(folded) ?? false);
}

function runName(text: string, run: CapitalRun, evidence: GroupEvidence): NameOccurrence | null {
  const words = run.words;
  const first = words[0];
  if (!first) return null;
  // A run opening a sentence made only of common words is a capitalised phrase or a title (Running Shoes For Flat
  // Feet), not a name.
  if (first.sentenceFirst && words.every((w) => common(w, evidence))) return null;
  let s = 0;
  let e = words.length;
  while (s < e && common(words[s] as ScannedWord)) s++;
  while (e > s && words[e - 1]?.kind !== 'number' && common(words[e - 1] as ScannedWord)) e--;
  // Trailing numbers are model and version numbers: kept as the variant, cut from the key (iPhone 15 → iPhone).
  let cut = e;
  while (cut > s && words[cut - 1]?.kind === 'number') cut--;
  // Stop words just before the numbers go too (Hoka One One 9 → Hoka: `one` is a stop word).
  while (cut > s && common(words[cut - 1] as ScannedWord)) cut--;
  if (cut === s) return null;
  const kept = words.slice(s, cut);
  // Past six words a run is a title or a sentence in capitals, not a name.
  if (kept.length > MAX_NAME_WORDS) return null;
  // One word opening a sentence is capitalised by the sentence: it is a name only if its form says so (CoinLore,
  // Investing.com) or the group also capitalises it where no sentence begins.
  const head = kept[0] as ScannedWord;
  const unproven = (w: ScannedWord) => !w.selfEvident && !evidence.midSentenceCapitals.has(foldWord(w.text));
  if (kept.length === 1 && head.sentenceFirst && unproven(head)) return null;
  // A heading capitalises every word: its run is a name only if the prose of the group capitalises each of its
  // words too (Building Canberra is not; Hoka Clifton is, when the answers write "the Hoka Clifton 9" elsewhere).
  if (run.heading && kept.some((w) => w.kind !== 'number' && unproven(w))) return null;
  const shownEnd = (kept[kept.length - 1] as ScannedWord).end;
  const writtenEnd = (words[e - 1] as ScannedWord).end;
  return occurrence(
    kept.map((w) => w.text),
    text.slice(head.start, shownEnd),
    text.slice(head.start, writtenEnd),
    head.start,
    writtenEnd,
  );
}

/** The longest run of capitalised words read as a name, in words. */
const MAX_NAME_WORDS = 6;
/** The longest bold span or list head read as a name, in words. */
const MAX_SPAN_WORDS = 4;

/** A bold span or list head with Hangul, when it reads as a name: short, no sentence ending, no heading word. */
function spanName(span: MarkupSpan): NameOccurrence | null {
  const text = trimEnd(span.text);
  const words = text.split(' ').filter((w) => w !== '');
  if (words.length === 0 || words.length > MAX_SPAN_WORDS) return null;
  if (KOREAN_SENTENCE_ENDS.has(text.slice(-1))) return null;
  if (words.some((w) => KOREAN_NOT_NAMES.has(foldWord(w)) || NAME_STOPWORDS.has(foldWord(w)))) return null;
  // As for Latin names, trailing numbers are a model or version (나이키 페가수스 41 → 나이키 페가수스).
  let cut = words.length;
  while (cut > 0 && !LETTER.test(words[cut - 1] ?? '')) cut--;
  if (cut === 0) return null;
  const kept = words.slice(0, cut);
  return occurrence(kept, kept.join(' '), words.join(' '), span.start, span.start + text.length);
}

const LETTER = /\p{L}/u;
/** Punctuation that closes a head (`나이키:`, `나이키.`), dropped from its end. */
const CLOSING = new Set(['.', ',', '!', '?', ':', ';', '\uFF1A']);

function trimEnd(text: string): string {
  let e = text.length;
  while (e > 0 && CLOSING.has(text[e - 1] ?? '')) e--;
  return text.slice(0, e);
}

/** The occurrence of the words `kept`, shown as `shown` and written as `written` (the same with its numbers). */
function occurrence(
  kept: readonly string[],
  shown: string,
  written: string,
  start: number,
  end: number,
): NameOccurrence | null {
  const words = kept.map(foldWord);
  const key = words.join(' ');
  // Countries, states, large cities and the adjectives of peoples are not brands.
  if (PLACES.has(key)) return null;
  // One letter or digit is no name (A, I, X): too many of them are not.
  let chars = 0;
  for (const c of key) if (WORD_CHAR.test(c)) chars++;
  if (chars < 2) return null;
  return { key, words, display: tidy(shown), written: tidy(written), start, end };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

function tidy(s: string): string {
  return s
    .normalize('NFKC')
    .split(/\s/u)
    .filter((w) => w !== '')
    .join(' ');
}

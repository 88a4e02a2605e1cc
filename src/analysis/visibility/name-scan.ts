import { withoutAddresses } from '../text/visible-text.js';
import { type MarkupSpan, markupSpans, SPACES } from './name-markup.js';
import { ABBREVIATIONS } from './name-stoplists.js';

/**
 * The scan of §6.8: one pass over an answer's text that cuts it into words and finds where a name may stand, without
 * a model and without a regular expression over the text (each character is classed once, so the time is linear in
 * the length whatever the text holds). What counts as a name is decided by `name-candidates.ts`.
 */

/** How a word reads: capitalised (Nike, iPhone, 3M), a number (9, 3.4), Hangul, or anything else. */
type WordKind = 'capital' | 'number' | 'hangul' | 'other';

export interface ScannedWord {
  text: string;
  start: number;
  end: number;
  kind: WordKind;
  /** The first word of a sentence, a line, a list item, a table cell or a quote: its capital says nothing. */
  sentenceFirst: boolean;
  /**
   * Its form says it is a name wherever it stands: a capital after a lower-case letter (CoinLore, iPhone, eBay) or
   * a web-domain ending (Investing.com). No English word is written so.
   */
  selfEvident: boolean;
}

/** Capitalised words joined by spaces or `&` (Hoka Clifton 9, Procter & Gamble): where a Latin-script name may be. */
export interface CapitalRun {
  words: ScannedWord[];
  /** On a title-case heading line (How to Cook the Eggs), where every word is capitalised whatever it is. */
  heading: boolean;
}

export interface ScannedText {
  runs: CapitalRun[];
  /** Bold spans and list heads holding Hangul. */
  spans: MarkupSpan[];
  /**
   * Every word written with a lower-case first letter (folded by `foldWord`), outside web domains and paths
   * (ruby-lang.org, endoflife.date/ruby): evidence that a capitalised one is a common word.
   */
  lowerWords: string[];
  /** Every capitalised word not first in its sentence, folded: evidence that one first in a sentence is a name. */
  midSentenceCapitals: string[];
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const LETTER = /\p{L}/u;
const UPPER = /[\p{Lu}\p{Lt}]/u;
const LOWER = /\p{Ll}/u;
const HANGUL = /\p{Script=Hangul}/u;
/**
 * Joined into a word when a word character stands on both sides: Coca-Cola, Node.js, L'Oréal, AT&T, 3.5, and
 * snake_case identifiers (GOOGLE_CLOUD_LOCATION), which are code and never names.
 */
const JOINERS = new Set(['-', '\u2010', '\u2011', '.', "'", '\u2019', '&', '_']);
/**
 * After one of these the next word opens a sentence: sentence and clause ends, a dash between words (`Hoka Clifton
 * 9 – Max cushioning`), line breaks, table cell borders and opening quotes (a quote starts an utterance of its own,
 * often capitalised: "Real price", “Matz”). A straight quote may also close one: the word after it then needs the
 * evidence a sentence's first word needs, which costs little.
 */
const SENTENCE_ENDS = new Set([
  '.',
  '!',
  '?',
  ':',
  ';',
  '\u2013',
  '\u2014',
  '\n',
  '|',
  '"',
  '\u201C',
  '\u2018',
  '\u00AB',
  '\u300C',
  '\u3002',
  '\uFF01',
  '\uFF1F',
  '\uFF1A',
]);

/** The scan of one text; web addresses are blanked first (§6.1), so no name is read from a URL. */
export function scanText(original: string): ScannedText {
  const text = withoutAddresses(original);
  const words = cutWords(text);
  return { ...capitalRuns(words, headingLines(text, words)), spans: markupSpans(text) };
}

/** One gap between two words: only spaces, spaces around one `&`, or anything else (a break). */
type Gap = 'space' | 'amp' | 'break';

interface WordWithGap extends ScannedWord {
  gap: Gap;
  /** Next to a `/`: a piece of a path or a domain written without its scheme, not a word of the prose. */
  inPath: boolean;
  /** The line it stands on, counted from 0. */
  line: number;
}

function cutWords(text: string): WordWithGap[] {
  const out: WordWithGap[] = [];
  let i = 0;
  let gapStart = 0;
  let sentenceFirst = true;
  let line = 0;
  while (i < text.length) {
    const ch = charAt(text, i);
    if (!WORD_CHAR.test(ch)) {
      if (ch === '\n') line++;
      if (SENTENCE_ENDS.has(ch) && !(ch === '.' && abbreviationBefore(out, i))) sentenceFirst = true;
      i += ch.length;
      continue;
    }
    const start = i;
    let script: 'hangul' | 'latin' | null = null;
    let end = i;
    while (end < text.length) {
      const c = charAt(text, end);
      if (WORD_CHAR.test(c)) {
        // Korean glues particles and nouns to Latin names (Nike의, LG전자, 갤럭시S24): a change of script ends a word.
        const s = LETTER.test(c) ? (HANGUL.test(c) ? 'hangul' : 'latin') : null;
        if (s !== null && script !== null && s !== script) break;
        script = s ?? script;
        end += c.length;
        continue;
      }
      const next = charAt(text, end + c.length);
      if (JOINERS.has(c) && next !== '' && WORD_CHAR.test(next)) {
        end += c.length;
        continue;
      }
      break;
    }
    const word = text.slice(start, end);
    const inPath = text[start - 1] === '/' || text[end] === '/';
    out.push({
      text: word,
      start,
      end,
      ...shapeOf(word),
      sentenceFirst,
      gap: gapOf(text, gapStart, start),
      inPath,
      line,
    });
    sentenceFirst = false;
    gapStart = end;
    i = end;
  }
  return out;
}

/** The full stop at `at` follows an abbreviation (e.g., Inc.) or an initial (J. Smith, U.S.): no sentence ends. */
function abbreviationBefore(words: readonly WordWithGap[], at: number): boolean {
  const last = words[words.length - 1];
  if (!last || last.end !== at) return false;
  const folded = foldWord(last.text);
  return ABBREVIATIONS.has(folded) || [...folded].length === 1 || /^(?:\p{L}\.)+\p{L}$/u.test(folded);
}

/**
 * A word as names are compared: NFKC, lower case, any apostrophe `'` and any dash `-`, without a possessive
 * (Nike’s, NIKE's → nike). The same folding makes the keys of names and the evidence of §6.8.
 */
export function foldWord(word: string): string {
  let w = word.normalize('NFKC').toLowerCase().replace(APOSTROPHES, "'").replace(DASHES, '-');
  if (w.endsWith("'s")) w = w.slice(0, -2);
  else if (w.endsWith("'")) w = w.slice(0, -1);
  return w;
}

const APOSTROPHES = /[\u2018\u2019\u02BC\uFF07]/gu;
const DASHES = /[\u2010-\u2015\u2212]/gu;

function shapeOf(word: string): { kind: WordKind; selfEvident: boolean } {
  let firstLetter = '';
  let innerCapital = false;
  // A capital right after a lower-case letter: CoinLore, McDonald, YouTube.
  let camel = false;
  let previousLower = false;
  let hangul = false;
  for (const c of word) {
    if (!LETTER.test(c)) {
      previousLower = false;
      continue;
    }
    if (HANGUL.test(c)) hangul = true;
    const upper = UPPER.test(c);
    if (firstLetter === '') firstLetter = c;
    else if (upper) innerCapital = true;
    if (upper && previousLower) camel = true;
    previousLower = LOWER.test(c);
  }
  if (hangul) return { kind: 'hangul', selfEvident: false };
  if (firstLetter === '') return { kind: 'number', selfEvident: false };
  // An identifier (snake_case) is code, whatever its case.
  if (word.includes('_')) return { kind: 'other', selfEvident: false };
  if (UPPER.test(firstLetter)) return { kind: 'capital', selfEvident: camel || DOMAIN_END.test(word) };
  // A lower-case start with a capital later is a name (iPhone, eBay, gRPC, macOS) when one letter comes before the
  // capitals or the capitals run to the end; otherwise it is code (setInterval, toBe, vi.useFakeTimers).
  if (LOWER.test(firstLetter) && innerCapital && lowerStartedName(word)) return { kind: 'capital', selfEvident: true };
  return { kind: 'other', selfEvident: false };
}

function lowerStartedName(word: string): boolean {
  if (word.includes('.')) return false;
  const letters = [...word].filter((c) => LETTER.test(c));
  const firstUpper = letters.findIndex((c) => UPPER.test(c));
  return firstUpper === 1 || letters.slice(firstUpper).every((c) => !LOWER.test(c));
}

/** A web-domain ending: a dot and two or more lower-case letters closing the word (Investing.com, MyFin.us). */
const DOMAIN_END = /\.\p{Ll}{2,}$/u;

function gapOf(text: string, from: number, to: number): Gap {
  if (from === 0 || to <= from) return 'break';
  let amps = 0;
  for (let k = from; k < to; k++) {
    const c = text[k] ?? '';
    if (c === '&') amps++;
    else if (!SPACES.has(c)) return 'break';
  }
  if (amps === 0) return 'space';
  // "Procter & Gamble": one `&` with a space on each side.
  return amps === 1 && SPACES.has(text[from] ?? '') && SPACES.has(text[to - 1] ?? '') ? 'amp' : 'break';
}

/**
 * The title-case lines: at least three Latin words, every one of four letters or more capitalised, and no full
 * stop, colon or other sentence end at the end of the line. Headings capitalise every word (How to Cook the Eggs,
 * The Rivalry Between Sydney and Melbourne), so their capitals say nothing about names.
 */
function headingLines(text: string, words: readonly WordWithGap[]): Set<number> {
  const out = new Set<number>();
  let k = 0;
  while (k < words.length) {
    const line = (words[k] as WordWithGap).line;
    let latin = 0;
    let long = 0;
    let titleCase = true;
    let end = 0;
    for (; k < words.length && (words[k] as WordWithGap).line === line; k++) {
      const w = words[k] as WordWithGap;
      end = w.end;
      if (w.kind === 'hangul') titleCase = false;
      if (w.kind !== 'capital' && w.kind !== 'other') continue;
      latin++;
      if ([...w.text].filter((c) => LETTER.test(c)).length < 4) continue;
      long++;
      if (w.kind !== 'capital') titleCase = false;
    }
    let e = end;
    while (e < text.length && text[e] !== '\n' && !LINE_END_MARKS.has(text[e] ?? '')) e++;
    const closed = e < text.length && text[e] !== '\n';
    if (titleCase && latin >= 3 && long > 0 && !closed) out.add(line);
  }
  return out;
}

/** Marks that close a sentence or introduce what follows: a line ending with one is prose or a label, no heading. */
const LINE_END_MARKS = new Set(['.', '!', '?', ':', ';', ',', '\u3002', '\uFF1A']);

function capitalRuns(words: readonly WordWithGap[], headings: ReadonlySet<number>): Omit<ScannedText, 'spans'> {
  const runs: CapitalRun[] = [];
  const lowerWords: string[] = [];
  const midSentenceCapitals: string[] = [];
  let run: ScannedWord[] = [];
  let runHeading = false;
  const close = () => {
    if (run.length > 0) runs.push({ words: run, heading: runHeading });
    run = [];
  };
  for (const w of words) {
    const heading = headings.has(w.line);
    const word: ScannedWord = {
      text: w.text,
      start: w.start,
      end: w.end,
      kind: w.kind,
      // On a heading every capital is like the first of a sentence.
      sentenceFirst: w.sentenceFirst || heading,
      selfEvident: w.selfEvident,
    };
    // A domain or a path written in lower case (ruby-lang.org) says nothing about how the prose writes a word.
    if (w.kind === 'other' && !w.inPath && !w.text.includes('.')) lowerWords.push(foldWord(w.text));
    if (w.kind === 'capital' && !word.sentenceFirst) midSentenceCapitals.push(foldWord(w.text));
    const joins = run.length > 0 && w.gap !== 'break' && (w.kind === 'capital' || w.kind === 'number');
    if (joins) {
      run.push(word);
      continue;
    }
    close();
    // A name starts with a capitalised word; a number only continues one (iPhone 15, New Balance 1080).
    if (w.kind === 'capital') {
      run = [word];
      runHeading = heading;
    }
  }
  close();
  return { runs, lowerWords, midSentenceCapitals };
}

/** The character (one or two UTF-16 units) at `i`, or '' past the end. */
function charAt(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

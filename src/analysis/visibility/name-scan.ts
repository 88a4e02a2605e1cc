import { withoutAddresses } from '../text/visible-text.js';
import { ABBREVIATIONS } from './name-stoplists.js';

/**
 * The scan of §6.8: one pass over an answer's text that cuts it into words and finds where a name may stand, without
 * a model and without a regular expression over the text (each character is classed once, so the time is linear in
 * the length whatever the text holds). What counts as a name is decided by `name-candidates.ts`.
 */

/** How a word reads: capitalised (Nike, iPhone, 3M), a number (9, 3.4), Hangul, or anything else. */
export type WordKind = 'capital' | 'number' | 'hangul' | 'other';

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
}

/** A bold span or a list head holding Hangul (**나이키**, `1. 나이키 페가수스: …`): where a Korean name may be. */
export interface MarkupSpan {
  text: string;
  start: number;
  end: number;
}

export interface ScannedText {
  runs: CapitalRun[];
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
 * often capitalised: "Real price", “Matz”).
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
/** Horizontal spaces: a run of them joins two capitalised words into one name. */
const SPACES = new Set([' ', '\t', '\u00A0', '\u2009', '\u202F', '\u3000']);

/** The scan of one text; web addresses are blanked first (§6.1), so no name is read from a URL. */
export function scanText(original: string): ScannedText {
  const text = withoutAddresses(original);
  const words = cutWords(text);
  return { ...capitalRuns(words), spans: markupSpans(text) };
}

/** One gap between two words: only spaces, spaces around one `&`, or anything else (a break). */
type Gap = 'space' | 'amp' | 'break';

interface WordWithGap extends ScannedWord {
  gap: Gap;
  /** Next to a `/`: a piece of a path or a domain written without its scheme, not a word of the prose. */
  inPath: boolean;
}

function cutWords(text: string): WordWithGap[] {
  const out: WordWithGap[] = [];
  let i = 0;
  let gapStart = 0;
  let sentenceFirst = true;
  while (i < text.length) {
    const ch = charAt(text, i);
    if (!WORD_CHAR.test(ch)) {
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
  // A capital first letter (Nike, 3M), or a lower-case one with a capital later (iPhone, eBay).
  const capital = UPPER.test(firstLetter) || (LOWER.test(firstLetter) && innerCapital);
  if (!capital) return { kind: 'other', selfEvident: false };
  return { kind: 'capital', selfEvident: camel || DOMAIN_END.test(word) };
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

function capitalRuns(words: readonly WordWithGap[]): Omit<ScannedText, 'spans'> {
  const runs: CapitalRun[] = [];
  const lowerWords: string[] = [];
  const midSentenceCapitals: string[] = [];
  let run: ScannedWord[] = [];
  const close = () => {
    if (run.length > 0) runs.push({ words: run });
    run = [];
  };
  for (const w of words) {
    const word: ScannedWord = {
      text: w.text,
      start: w.start,
      end: w.end,
      kind: w.kind,
      sentenceFirst: w.sentenceFirst,
      selfEvident: w.selfEvident,
    };
    // A domain or a path written in lower case (ruby-lang.org) says nothing about how the prose writes a word.
    if (w.kind === 'other' && !w.inPath && !w.text.includes('.')) lowerWords.push(foldWord(w.text));
    if (w.kind === 'capital' && !w.sentenceFirst) midSentenceCapitals.push(foldWord(w.text));
    const joins = run.length > 0 && w.gap !== 'break' && (w.kind === 'capital' || w.kind === 'number');
    if (joins) {
      run.push(word);
      continue;
    }
    close();
    // A name starts with a capitalised word; a number only continues one (iPhone 15, New Balance 1080).
    if (w.kind === 'capital') run = [word];
  }
  close();
  return { runs, lowerWords, midSentenceCapitals };
}

/** The longest bold span or list head read as a possible name. */
const MAX_SPAN_CHARS = 40;

/** Bold spans on one line and list heads that hold Hangul; other scripts are found by their capitals. */
function markupSpans(text: string): MarkupSpan[] {
  const spans: MarkupSpan[] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    const head = listHead(text, lineStart, lineEnd);
    if (head) spans.push(head);
    spans.push(...boldSpans(text, lineStart, lineEnd));
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return spans.filter((s) => HANGUL.test(s.text));
}

/** `**…**` or `__…__` within one line, at most MAX_SPAN_CHARS long. */
function boldSpans(text: string, from: number, to: number): MarkupSpan[] {
  const out: MarkupSpan[] = [];
  let open = -1;
  let marker = '';
  for (let k = from; k + 1 < to; k++) {
    const two = text.slice(k, k + 2);
    if (two !== '**' && two !== '__') continue;
    if (open >= 0 && two === marker) {
      if (k - open <= MAX_SPAN_CHARS) out.push(trimmedSpan(text, open, k));
      open = -1;
    } else if (open < 0) {
      open = k + 2;
      marker = two;
    }
    k++;
  }
  return out;
}

/** List markers: `-`, `*`, `+`, bullets, or 1–3 digits and `.` or `)`. */
const BULLETS = new Set(['-', '*', '+', '\u2022', '\u00B7', '\u2023', '\u25E6']);
/** What ends a list head: `1. 나이키 페가수스: 가볍다` has the head 나이키 페가수스. */
const HEAD_ENDS = [':', '\uFF1A', ' - ', ' \u2013 ', ' \u2014 ', '(', '\uFF08'];

/**
 * The head of a list item, when the item is `marker head separator rest`. A head without a separator is the whole
 * item, mostly a sentence or a phrase, and is not read.
 */
function listHead(text: string, from: number, to: number): MarkupSpan | null {
  let k = from;
  while (k < to && SPACES.has(text[k] ?? '')) k++;
  if (BULLETS.has(text[k] ?? '')) k++;
  else {
    const digitsFrom = k;
    while (k < to && k - digitsFrom < 4 && /\d/.test(text[k] ?? '')) k++;
    if (k === digitsFrom || k - digitsFrom > 3 || (text[k] !== '.' && text[k] !== ')')) return null;
    k++;
  }
  if (!SPACES.has(text[k] ?? '')) return null;
  const headStart = k;
  const limit = Math.min(to, headStart + MAX_SPAN_CHARS + 4);
  // Looked for within the limit only: a search to the end of the text for every line would be quadratic.
  for (let at = headStart; at < limit; at++) {
    if (HEAD_ENDS.some((sep) => text.startsWith(sep, at))) return trimmedSpan(text, headStart, at);
  }
  return null;
}

/** The span without surrounding spaces and emphasis markers. */
function trimmedSpan(text: string, from: number, to: number): MarkupSpan {
  let s = from;
  let e = to;
  while (s < e && (SPACES.has(text[s] ?? '') || text[s] === '*' || text[s] === '_')) s++;
  while (e > s && (SPACES.has(text[e - 1] ?? '') || text[e - 1] === '*' || text[e - 1] === '_')) e--;
  return { text: text.slice(s, e), start: s, end: e };
}

/** The character (one or two UTF-16 units) at `i`, or '' past the end. */
function charAt(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

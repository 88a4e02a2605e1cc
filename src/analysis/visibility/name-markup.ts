/**
 * Where a Korean name may stand (§6.8): Hangul has no capitals, so only markup marks a name, a bold span
 * (`**나이키 페가수스 41**`) or the head of a list item (`1. 나이키 페가수스: 가볍다`, `- 호카 클리프톤 - 쿠션`). Each line
 * is read once and each head within a bounded window, so the time is linear in the text.
 */

/** A bold span or a list head holding Hangul (**나이키**, `1. 나이키 페가수스: …`). */
export interface MarkupSpan {
  text: string;
  start: number;
  end: number;
}

/** Horizontal spaces: a run of them joins two capitalised words into one name, and pads list markers. */
export const SPACES: ReadonlySet<string> = new Set([' ', '\t', '\u00A0', '\u2009', '\u202F', '\u3000']);

const HANGUL = /\p{Script=Hangul}/u;

/** The longest bold span or list head read as a possible name, in UTF-16 units. */
const MAX_SPAN_CHARS = 40;

/** Bold spans on one line and list heads that hold Hangul; other scripts are found by their capitals. */
export function markupSpans(text: string): MarkupSpan[] {
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

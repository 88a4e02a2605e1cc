import { trimEndChars } from '../text/norm.js';

/** Citation-marker grammar of docs/analysis.md#s2-5 (applied to raw unit text). */

type MarkerKind = 'bracket' | 'footnote' | 'lenticular' | 'superscript';

export interface Marker {
  kind: MarkerKind;
  raw: string;
  numbers: number[];
  /** Offset in the text the marker was found in. */
  start: number;
}

export interface LinkRef {
  url: string;
  start: number;
}

const NUM_LIST = String.raw`\d{1,3}(?:\s*[-–]\s*\d{1,3})?(?:\s*,\s*\d{1,3}(?:\s*[-–]\s*\d{1,3})?)*`;
const BRACKET = new RegExp(String.raw`\[(${NUM_LIST})\](?!\()`, 'g');
const FOOTNOTE = /\[\^(\d{1,3})\](?!:)/g;
const LENTICULAR = /【(\d{1,3})(?::\d+)?(?:†[^】【\n]{0,200})?】/g;
const SUPERSCRIPT = /[⁰¹²³⁴⁵⁶⁷⁸⁹]+/g;
// The label excludes `[` and the URL `[`, `]` (the tail of a 【n† marker, the next 【): otherwise each opener of a
// run without its closer rescans the text to its end, quadratic in the run (200 KB of `[a](http://` took 9.7 s).
const MD_LINK = /\[([^[\]\n]{0,1000})\]\((https?:\/\/[^\s)[\]]{1,2048})\)/g;
const BARE_URL = /https?:\/\/[^\s)\]>"'<]+/g;

const SUPER_DIGITS: Readonly<Record<string, string>> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
};

/** Expands `1, 3-5` into [1, 3, 4, 5]; ranges longer than 50 are kept as their ends only. */
function expand(list: string): number[] {
  const out: number[] = [];
  for (const part of list.split(',')) {
    const [a, b] = part.split(/[-–]/).map((x) => Number(x.trim()));
    if (a === undefined || !Number.isFinite(a)) continue;
    if (b === undefined || !Number.isFinite(b)) out.push(a);
    else if (b >= a && b - a <= 50) for (let n = a; n <= b; n++) out.push(n);
    else out.push(a, b);
  }
  return out;
}

/** Whether an answer uses bracketed, footnote or lenticular markers anywhere (superscripts are then ignored). */
export function hasBracketMarkers(text: string): boolean {
  return (
    new RegExp(BRACKET.source).test(text) ||
    new RegExp(FOOTNOTE.source).test(text) ||
    new RegExp(LENTICULAR.source).test(text)
  );
}

export function findMarkers(text: string, allowSuperscript: boolean): Marker[] {
  const out: Marker[] = [];
  for (const m of text.matchAll(BRACKET))
    out.push({ kind: 'bracket', raw: m[0], numbers: expand(m[1] ?? ''), start: m.index });
  for (const m of text.matchAll(FOOTNOTE))
    out.push({ kind: 'footnote', raw: m[0], numbers: [Number(m[1])], start: m.index });
  for (const m of text.matchAll(LENTICULAR))
    out.push({ kind: 'lenticular', raw: m[0], numbers: [Number(m[1])], start: m.index });
  if (allowSuperscript) {
    for (const m of text.matchAll(SUPERSCRIPT)) {
      const n = Number([...m[0]].map((c) => SUPER_DIGITS[c] ?? '').join(''));
      out.push({ kind: 'superscript', raw: m[0], numbers: [n], start: m.index });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

export function findLinks(text: string): LinkRef[] {
  const out: LinkRef[] = [];
  const covered: Array<[number, number]> = [];
  for (const m of text.matchAll(MD_LINK)) {
    out.push({ url: m[2] ?? '', start: m.index });
    covered.push([m.index, m.index + m[0].length]);
  }
  // Both runs are in text order, so one pointer walks the covered ranges (linear, not links × links).
  let k = 0;
  for (const m of text.matchAll(BARE_URL)) {
    while (k < covered.length && (covered[k] as [number, number])[1] <= m.index) k++;
    const range = covered[k];
    if (range && m.index >= range[0] && m.index < range[1]) continue;
    out.push({ url: trimEndChars(m[0], '.,;:!?'), start: m.index });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Removes markers and turns Markdown inline markup into plain text (markers gone, link labels kept). */
export function stripMarkup(text: string, allowSuperscript: boolean): string {
  let t = text
    .replace(MD_LINK, '$1')
    .replace(BARE_URL, ' ')
    .replace(BRACKET, ' ')
    .replace(FOOTNOTE, ' ')
    .replace(LENTICULAR, ' ');
  if (allowSuperscript) t = t.replace(SUPERSCRIPT, ' ');
  // Whitespace is collapsed before the space before punctuation is dropped, and quote marks are
  // matched within a line: each pattern then scans a run once, not once per starting position.
  return t
    .replace(/^[ \t]*>[ \t]?/gm, '')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|[^*\w])[*_]([^*_\n]+)[*_](?=[^*\w]|$)/g, '$1$2')
    .replace(/\|/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:!?])/g, '$1')
    .trim();
}

/** Length of a leading run of markers (and whitespace) at the start of a unit, 0 if none. */
export function leadingMarkerLength(text: string, allowSuperscript: boolean): number {
  const markers = findMarkers(text, allowSuperscript);
  // By start, so that a run of n markers takes n lookups, not n scans of the list.
  const byStart = new Map<number, Marker>();
  for (const m of markers) if (!byStart.has(m.start)) byStart.set(m.start, m);
  let pos = 0;
  let consumed = false;
  for (;;) {
    while (pos < text.length && /\s/.test(text[pos] as string)) pos++;
    const m = byStart.get(pos);
    if (!m) break;
    pos += m.raw.length;
    consumed = true;
  }
  // Only markers/whitespace seen: nothing to move unless at least one marker was consumed.
  return consumed ? pos : 0;
}

import type { Language } from './norm.js';

/** Segmentation of §1.1: Intl.Segmenter plus three post-processing merges. */

const ABBREVIATIONS = [
  'Mr.',
  'Mrs.',
  'Ms.',
  'Dr.',
  'Prof.',
  'Inc.',
  'Ltd.',
  'Co.',
  'Corp.',
  'vs.',
  'e.g.',
  'i.e.',
  'etc.',
  'approx.',
  'No.',
  'U.S.',
  'U.K.',
  'St.',
];
const ABBREV_END = new RegExp(`(?:^|[\\s(])(?:${ABBREVIATIONS.map((a) => a.replace(/\./g, '\\.')).join('|')})$`);
/**
 * The tail of a sentence that ABBREV_END is tested on: longer than the longest abbreviation and the
 * character before it, so its `^` matches only where the sentence itself starts.
 */
const ABBREV_TAIL = Math.max(...ABBREVIATIONS.map((a) => a.length)) + 2;

/** Citation-marker shapes that may stand alone between sentences (the full grammar is in markers.ts). */
const MARKER_RUN = /(?:\[\^?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*\]|【\d{1,3}(?:†[^】【\n]{0,200})?】|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)/g;
/**
 * One marker, a superscript digit counting as one: repeated by `*` or `+` below, a superscript
 * run inside the repetition could be split in exponentially many ways.
 */
const MARKER = String.raw`(?:\[\^?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*\]|【\d{1,3}(?:†[^】【\n]{0,200})?】|[¹²³⁴⁵⁶⁷⁸⁹⁰])`;
const ONLY_MARKERS = new RegExp(`^(?:\\s|${MARKER})*$`);
/** Markers at the start, each after optional whitespace; the whitespace after the last is added in code. */
const LEADING_MARKERS = new RegExp(`^(?:\\s*${MARKER})+`);

const segmenters = new Map<string, { sentence: Intl.Segmenter; word: Intl.Segmenter }>();
function segmentersFor(lang: Language): { sentence: Intl.Segmenter; word: Intl.Segmenter } {
  const locale = lang === 'ko' ? 'ko' : 'en';
  let s = segmenters.get(locale);
  if (!s) {
    s = {
      sentence: new Intl.Segmenter(locale, { granularity: 'sentence' }),
      word: new Intl.Segmenter(locale, { granularity: 'word' }),
    };
    segmenters.set(locale, s);
  }
  return s;
}

/**
 * V8's Intl.Segmenter takes time quadratic in the length of the string it iterates (measured on
 * Node 20: 40,000 characters of `Dr. ` took 0.76 s, 200,000 about 70 s). Long text is therefore
 * segmented a window of SEGMENT_WINDOW characters at a time: every boundary but the window's last
 * is kept, and the next window starts at that last boundary, so the result is the one-pass result
 * wherever a segment is shorter than the window. A segment longer than the window (no boundary in
 * it) is cut at the window's end.
 */
const SEGMENT_WINDOW = 1_000;

interface RawSegment {
  segment: string;
  index: number;
  isWordLike: boolean;
}

function* segmentsOf(segmenter: Intl.Segmenter, text: string): Generator<RawSegment> {
  let from = 0;
  while (from < text.length) {
    const end = Math.min(text.length, from + SEGMENT_WINDOW);
    const last = end === text.length;
    const pending: RawSegment[] = [];
    for (const s of segmenter.segment(text.slice(from, end)))
      pending.push({ segment: s.segment, index: from + s.index, isWordLike: s.isWordLike === true });
    // The window's last segment may go on past its end: it is segmented again with the next window.
    const keep = last || pending.length === 1 ? pending.length : pending.length - 1;
    for (let i = 0; i < keep; i++) yield pending[i] as RawSegment;
    const next = pending[keep];
    from = next ? next.index : end;
  }
}

export interface Segment {
  text: string;
  /** Offset of `text` in the input. */
  start: number;
}

/** Word-like segments (eojeol-sized for Korean; digits split from a following Hangul counter). */
export function words(text: string, lang: Language = 'en'): string[] {
  const out: string[] = [];
  for (const s of segmentsOf(segmentersFor(lang).word, text)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/**
 * Word-like runs by regular expression: numbers and letter runs apart (`2024년` → `2024`, `년`,
 * like the segmenter). Used for matching tokens, window sizes and the short-segment rule, because
 * Intl.Segmenter's word iterator took ~0.7 s for one 60,000-character page here (25 pages per
 * task); unit word counts |u| keep the segmenter.
 */
const FAST_WORD = /\p{N}+(?:[.,]\p{N}+)*|[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;
export function fastWords(text: string): string[] {
  return text.match(FAST_WORD) ?? [];
}

/** The run of markers (and the whitespace around them) that starts `text`, '' if none. */
function leadingMarkers(text: string): string {
  const m = LEADING_MARKERS.exec(text)?.[0];
  if (!m) return '';
  let end = m.length;
  while (end < text.length && /\s/.test(text[end] as string)) end++;
  return text.slice(0, end);
}

/**
 * Sentences with the merges of §1.1: marker-only segments join the previous sentence, a segment
 * ending in a known abbreviation joins the next one, and a segment of fewer than 3 words without a
 * marker joins the previous one.
 */
export function sentences(text: string, lang: Language = 'en'): Segment[] {
  // Boundaries come from a copy with markers blanked out: ICU otherwise splits inside `.[^1]` or
  // glues `here.【1†x】Next` together; blanking keeps offsets and leaves markers with their sentence.
  const blanked = text.replace(MARKER_RUN, (m) => ' '.repeat(m.length));
  const raw: Segment[] = [];
  for (const s of segmentsOf(segmentersFor(lang).sentence, blanked))
    raw.push({ text: text.slice(s.index, s.index + s.segment.length), start: s.index });

  // Rule 2 first: an abbreviation at the end means the sentence did not end there.
  // The carried text is kept as parts and only its tail is tested, so that a run of abbreviations
  // (`Dr. Dr. …`) costs linear time, not a rescan of the growing sentence at each step.
  const joined: Segment[] = [];
  let parts: string[] = [];
  let start = 0;
  let rawTail = '';
  let trimmedTail = '';
  for (const s of raw) {
    if (parts.length === 0) {
      start = s.start;
      rawTail = '';
      trimmedTail = '';
    }
    parts.push(s.text);
    const body = s.text.trimEnd();
    if (body !== '') trimmedTail = (rawTail + body).slice(-ABBREV_TAIL);
    rawTail = (rawTail + s.text).slice(-ABBREV_TAIL);
    if (!ABBREV_END.test(trimmedTail)) {
      joined.push({ text: parts.join(''), start });
      parts = [];
    }
  }
  if (parts.length > 0) joined.push({ text: parts.join(''), start });

  const out: Segment[] = [];
  for (const seg of joined) {
    let s = seg;
    const prev = out[out.length - 1];
    // A marker before the first word belongs to the previous sentence (`… years. [1] Next …`).
    const lead = prev ? leadingMarkers(s.text) : '';
    if (prev && lead && lead.trim() !== s.text.trim()) {
      prev.text += lead;
      s = { text: s.text.slice(lead.length), start: s.start + lead.length };
    }
    const onlyMarkers = ONLY_MARKERS.test(s.text);
    const hasMarker = new RegExp(MARKER_RUN.source).test(s.text);
    const short = !hasMarker && fastWords(s.text).length < 3;
    if (prev && (onlyMarkers || short)) prev.text += s.text;
    else out.push({ ...s });
  }
  return out
    .map((s) => {
      const lead = s.text.length - s.text.trimStart().length;
      return { text: s.text.trim(), start: s.start + lead };
    })
    .filter((s) => s.text.length > 0);
}

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
const ABBREV_END = new RegExp(`(?:^|[\\s(])(?:${ABBREVIATIONS.map((a) => a.replace(/\./g, '\\.')).join('|')})\\s*$`);

/** Citation-marker shapes that may stand alone between sentences (the full grammar is in markers.ts). */
export const MARKER_RUN = /(?:\[\^?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*\]|【\d{1,3}(?:†[^】]*)?】|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)/g;
const ONLY_MARKERS = new RegExp(`^(?:\\s|${MARKER_RUN.source})*$`);
const LEADING_MARKERS = new RegExp(`^(?:\\s*${MARKER_RUN.source})+\\s*`);

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

export interface Segment {
  text: string;
  /** Offset of `text` in the input. */
  start: number;
}

/** Word-like segments (eojeol-sized for Korean; digits split from a following Hangul counter). */
export function words(text: string, lang: Language = 'en'): string[] {
  const out: string[] = [];
  for (const s of segmentersFor(lang).word.segment(text)) if (s.isWordLike) out.push(s.segment);
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
  for (const s of segmentersFor(lang).sentence.segment(blanked))
    raw.push({ text: text.slice(s.index, s.index + s.segment.length), start: s.index });

  // Rule 2 first: an abbreviation at the end means the sentence did not end there.
  const joined: Segment[] = [];
  let carry: Segment | null = null;
  for (const s of raw) {
    const cur: Segment = carry ? { text: carry.text + s.text, start: carry.start } : s;
    carry = ABBREV_END.test(cur.text) ? cur : null;
    if (!carry) joined.push(cur);
  }
  if (carry) joined.push(carry);

  const out: Segment[] = [];
  for (const seg of joined) {
    let s = seg;
    const prev = out[out.length - 1];
    // A marker before the first word belongs to the previous sentence (`… years. [1] Next …`).
    const lead = prev ? (LEADING_MARKERS.exec(s.text)?.[0] ?? '') : '';
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

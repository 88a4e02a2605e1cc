import { detectLanguage, norm, type Language } from '../text/norm.js';
import { sentences, words } from '../text/segment.js';
import {
  findLinks,
  findMarkers,
  hasBracketMarkers,
  leadingMarkerLength,
  stripMarkup,
  type LinkRef,
  type Marker,
} from './markers.js';

/** Answer units of docs/analysis.md#s2-5: blocks, then sentences of paragraph blocks. */

export type UnitKind = 'paragraph' | 'list_item' | 'table_row' | 'blockquote';

export interface AnswerUnit {
  index: number;
  /** Raw unit text (code masked out), markers included. */
  text: string;
  /** Offset of `text` in the answer. */
  start: number;
  plainText: string;
  /** |u|: word-like tokens (§1.1). */
  words: number;
  /** GEO-compatible count: Latin/other tokens of ≤ 2 characters dropped, Hangul tokens always kept. */
  geoWords: number;
  markers: Marker[];
  links: LinkRef[];
  kind: UnitKind;
  /** 1-based item index within its list (top-level item for nested ones), null outside lists. */
  listItem: number | null;
}

export interface SegmentedAnswer {
  language: Language;
  units: AnswerUnit[];
  referencesBlock: boolean;
  /** Marker number → URL from a trailing references block. */
  references: Map<number, string>;
  allowSuperscript: boolean;
}

interface Line {
  text: string;
  start: number;
}

interface Block {
  kind: UnitKind;
  start: number;
  end: number;
  listItem: number | null;
}

const HEADING = /^\s{0,3}#{1,6}\s/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const LIST_ITEM = /^(\s*)([-*+]|(\d{1,3})[.)])\s+/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const REF_HEADING =
  /^\s*(?:#{1,6}\s*)?(?:\*\*)?\s*(sources|references|citations|출처|참고|참고\s?자료|참고\s?문헌)\s*:?\s*(?:\*\*)?\s*:?\s*$/i;
const REF_LINE = /^\s*(?:[-*]\s*)?(?:\[\^?(\d{1,3})\]:?|(\d{1,3})[.)])\s*.*?(https?:\/\/[^\s)\]>]+)/;

/** Masks fenced code blocks and inline code with spaces (offsets stay valid, code is not scored). */
export function maskCode(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return text
    .replace(/(^|\n)(```|~~~)[^\n]*\n[\s\S]*?(\n\2[^\n]*(?=\n|$)|$)/g, (m) => blank(m))
    .replace(/`[^`\n]+`/g, (m) => blank(m));
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const part of text.split('\n')) {
    out.push({ text: part, start });
    start += part.length + 1;
  }
  return out;
}

/** Finds a trailing references block: a heading such as Sources/출처, or a run of `[n] … https://…` lines. */
function referencesBlock(lines: Line[]): { from: number; refs: Map<number, string> } | null {
  let last = lines.length - 1;
  while (last >= 0 && (lines[last]?.text.trim() ?? '') === '') last--;
  if (last < 0) return null;
  const refs = new Map<number, string>();
  const collect = (from: number) => {
    for (let i = from; i <= last; i++) {
      const m = REF_LINE.exec(lines[i]?.text ?? '');
      const n = Number(m?.[1] ?? m?.[2]);
      if (m?.[3] && Number.isFinite(n) && !refs.has(n)) refs.set(n, m[3].replace(/[.,;:]+$/, ''));
    }
  };
  for (let i = last; i >= 0; i--) {
    if (!REF_HEADING.test(lines[i]?.text ?? '')) continue;
    const after = lines.slice(i + 1, last + 1).filter((l) => l.text.trim() !== '');
    if (
      after.length > 0 &&
      after.every((l) => /https?:\/\//.test(l.text) || /^\s*(\[\^?\d+\]|\d+[.)]|[-*])/.test(l.text))
    ) {
      collect(i + 1);
      return { from: i, refs };
    }
    break;
  }
  let i = last;
  while (i >= 0 && REF_LINE.test(lines[i]?.text ?? '')) i--;
  if (last - i >= 2) {
    collect(i + 1);
    return { from: i + 1, refs };
  }
  return null;
}

function blocksOf(lines: Line[]): Block[] {
  const blocks: Block[] = [];
  let cur: Block | null = null;
  let listBase: number | null = null;
  let listCounter = 0;
  const close = () => {
    if (cur) blocks.push(cur);
    cur = null;
  };
  for (const line of lines) {
    const t = line.text;
    const end = line.start + t.length;
    if (t.trim() === '' || HEADING.test(t) || RULE.test(t)) {
      close();
      if (t.trim() !== '') listBase = null;
      continue;
    }
    const item = LIST_ITEM.exec(t);
    if (item) {
      close();
      const indent = item[1]?.length ?? 0;
      if (listBase === null || indent < listBase) {
        listBase = indent;
        listCounter = 0;
      }
      if (indent === listBase) listCounter = item[3] ? Number(item[3]) : listCounter + 1;
      cur = { kind: 'list_item', start: line.start + item[0].length, end, listItem: listCounter };
      continue;
    }
    if (/^\s*\|/.test(t)) {
      close();
      listBase = null;
      if (!TABLE_SEPARATOR.test(t)) blocks.push({ kind: 'table_row', start: line.start, end, listItem: null });
      continue;
    }
    const quote = /^\s*>/.test(t);
    const c = cur as Block | null;
    if (c && (c.kind === 'list_item' ? /^\s+\S/.test(t) : c.kind === (quote ? 'blockquote' : 'paragraph'))) {
      c.end = end; // continuation line of the same block
      continue;
    }
    close();
    listBase = null;
    cur = { kind: quote ? 'blockquote' : 'paragraph', start: line.start, end, listItem: null };
  }
  close();
  return blocks;
}

function geoCount(ws: string[]): number {
  return ws.filter((w) => /\p{Script=Hangul}/u.test(w) || [...w].length > 2).length;
}

export function segmentAnswer(answer: string): SegmentedAnswer {
  const masked = maskCode(answer);
  const language = detectLanguage(norm(masked));
  const allowSuperscript = !hasBracketMarkers(masked);
  const lines = splitLines(masked);
  const refs = referencesBlock(lines);
  const body = refs ? lines.slice(0, refs.from) : lines;

  const raw: Array<{ text: string; start: number; kind: UnitKind; listItem: number | null }> = [];
  for (const b of blocksOf(body)) {
    const text = masked.slice(b.start, b.end);
    if (b.kind === 'paragraph' || b.kind === 'blockquote') {
      for (const s of sentences(text, language))
        raw.push({ text: s.text, start: b.start + s.start, kind: b.kind, listItem: null });
    } else {
      const lead = text.length - text.trimStart().length;
      raw.push({ text: text.trim(), start: b.start + lead, kind: b.kind, listItem: b.listItem });
    }
  }

  const units: AnswerUnit[] = [];
  for (const r of raw) {
    let { text, start } = r;
    const prev = units[units.length - 1];
    // A marker before the first word belongs to the previous unit (`sentence. [1] Next sentence`).
    const lead = leadingMarkerLength(text, allowSuperscript);
    if (lead > 0 && prev) {
      for (const m of findMarkers(text.slice(0, lead), allowSuperscript))
        prev.markers.push({ ...m, start: start + m.start - prev.start });
      start += lead;
      text = text.slice(lead).trimStart();
    }
    const plainText = norm(stripMarkup(text, allowSuperscript));
    if (plainText === '' || !/[\p{L}\p{N}]/u.test(plainText)) {
      if (prev)
        for (const m of findMarkers(text, allowSuperscript))
          prev.markers.push({ ...m, start: start + m.start - prev.start });
      continue;
    }
    const ws = words(plainText, language);
    units.push({
      index: units.length,
      text,
      start,
      plainText,
      words: ws.length,
      geoWords: geoCount(ws),
      markers: findMarkers(text, allowSuperscript),
      links: findLinks(text),
      kind: r.kind,
      listItem: r.listItem,
    });
  }
  return { language, units, referencesBlock: refs !== null, references: refs?.refs ?? new Map(), allowSuperscript };
}

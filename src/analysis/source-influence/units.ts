import { detectLanguage, norm, trimEndChars, type Language } from '../text/norm.js';
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

type UnitKind = 'paragraph' | 'list_item' | 'table_row' | 'blockquote';

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

/*
 * Every pattern below sees client text, one line at a time, and runs in linear time: no two
 * adjacent quantifiers can take the same characters (`npm run lint` checks it). Lines are
 * classified by their first CLASSIFY_PREFIX characters only, and the shapes that need the whole
 * line (table separators, reference headings) are decided on the line with its whitespace runs
 * collapsed, or by splitting rather than by a pattern.
 */
const HEADING = /^\s{0,3}#{1,6}\s/;
const RULE = /^([-*_])(?: ?\1){2,}$/;
const LIST_ITEM = /^(\s*)([-*+]|(\d{1,3})[.)])\s+/;
const TABLE_CELL = /^:?-{3,}:?$/;
const REF_HEADING =
  /^(?:#{1,6} ?)?(?:\*\*)? ?(?:sources|references|citations|출처|참고|참고 ?자료|참고 ?문헌) ?:? ?(?:\*\*)? ?:?$/i;
const REF_MARKER = /^\s*(?:[-*]\s*)?(?:\[\^?(\d{1,3})\]|(\d{1,3})[.)])/;
const URL_IN_LINE = /https?:\/\/[^\s)\]>]+/;
const REF_LIKE = /^\s*(?:\[\^?\d+\]|\d+[.)]|[-*])/;
/** Characters of a line that decide its block kind: a heading, list item, rule or table row shows in its first ones. */
const CLASSIFY_PREFIX = 256;
/** A references heading or a table separator is short; a longer line (whitespace collapsed) is neither. */
const SHORT_LINE = 512;

/** `t` with each whitespace run made one space and no whitespace at either end. */
function collapsed(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}

function prefix(t: string): string {
  return t.length > CLASSIFY_PREFIX ? t.slice(0, CLASSIFY_PREFIX) : t;
}

/** A thematic break (`---`, `* * *`): indented at most 3 columns. */
function isRule(t: string): boolean {
  const body = t.trimStart();
  if (t.length - body.length > 3 || !'-*_'.includes(body[0] ?? 'x')) return false;
  return RULE.test(collapsed(body));
}

/** A Markdown table separator (`| --- | :---: |`): every cell three or more dashes, with optional colons. */
function isTableSeparator(t: string): boolean {
  const s = collapsed(t);
  if (s.length > SHORT_LINE) return false;
  const cells = s.split('|');
  if (cells[0]?.trim() === '') cells.shift();
  if (cells.length > 1 && cells[cells.length - 1]?.trim() === '') cells.pop();
  return cells.length > 0 && cells.every((c) => TABLE_CELL.test(c.trim()));
}

function isRefHeading(t: string): boolean {
  const s = collapsed(t);
  return s.length <= SHORT_LINE && REF_HEADING.test(s);
}

/** A reference line (`[3] Title https://…`, `3. https://…`): its number and its first URL. */
function refLine(t: string): { n: number; url: string } | null {
  const m = REF_MARKER.exec(t.slice(0, CLASSIFY_PREFIX));
  if (!m) return null;
  const url = URL_IN_LINE.exec(t.slice(m[0].length))?.[0];
  if (!url) return null;
  return { n: Number(m[1] ?? m[2]), url };
}

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
      const r = refLine(lines[i]?.text ?? '');
      if (r && Number.isFinite(r.n) && !refs.has(r.n)) refs.set(r.n, trimEndChars(r.url, '.,;:'));
    }
  };
  for (let i = last; i >= 0; i--) {
    if (!isRefHeading(lines[i]?.text ?? '')) continue;
    const after = lines.slice(i + 1, last + 1).filter((l) => l.text.trim() !== '');
    if (
      after.length > 0 &&
      after.every((l) => l.text.includes('http://') || l.text.includes('https://') || REF_LIKE.test(prefix(l.text)))
    ) {
      collect(i + 1);
      return { from: i, refs };
    }
    break;
  }
  let i = last;
  while (i >= 0 && refLine(lines[i]?.text ?? '') !== null) i--;
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
    const t = prefix(line.text);
    const end = line.start + line.text.length;
    if (line.text.trim() === '' || HEADING.test(t) || isRule(line.text)) {
      close();
      if (line.text.trim() !== '') listBase = null;
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
      if (!isTableSeparator(line.text)) blocks.push({ kind: 'table_row', start: line.start, end, listItem: null });
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

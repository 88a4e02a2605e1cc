/**
 * The drop tracer: what aeq's page reader removes from the article Readability found, and whether that was article
 * text. aeq's reader (`extractMainContent`) reports Readability's own text (its `textContent`, before any step of
 * ours) and every block a cleanup rule removed; a removed block is **article text** when the page's expected text
 * holds it (see `isArticleText`), otherwise boilerplate.
 */
import { extractMainContent, type ReaderRule } from '../../src/engines/web/main-content.js';
import { toPlainText } from '../../src/engines/web/page-markdown.js';
import { words as wordsOf } from './score.js';

/** A page of a real-page corpus as its `expected.json` lists it (the gzipped page beside it). */
export interface CorpusPage {
  id: string;
  file: string;
  charset: string;
  url: string;
  expectedText: string;
}

export interface RemovedBlock {
  rule: ReaderRule;
  /** The removed element's tag name (`P`, `UL`, `SPAN`, …). */
  tag: string;
  text: string;
  words: number;
  articleText: boolean;
}

export interface TracedPage {
  /** Readability's own text (its `textContent`), or '' when it found nothing. */
  readabilityText: string;
  /**
   * Readability's article as plain text with a line break between blocks, as aeq's text is written, before any step
   * of ours ('' when it found nothing). `textContent` runs adjacent blocks together ("Home" + "News" reads
   * "HomeNews"), so the words aeq dropped are counted against this text.
   */
  readabilityLines: string;
  /** aeq's `text`, without the headline line it puts first ('' when the page failed). */
  aeqText: string;
  /** aeq's `text` as returned, headline line included. */
  aeqFullText: string;
  /** Which path aeq took (`readability`, `fallback:…`), or the failure's message. */
  tier: string;
  removed: RemovedBlock[];
}

/** Word 4-grams, the unit the article-extraction benchmarks match text by. */
function shingles(words: readonly string[], n = 4): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + n <= words.length; i++) out.add(words.slice(i, i + n).join(' '));
  return out;
}

/** What `isArticleText` compares a block with: the expected text's 4-grams and its lines, prepared once per page. */
interface ExpectedIndex {
  shingles: Set<string>;
  lines: Set<string>;
  /** The expected text's words joined by single spaces, framed by spaces. */
  joined: string;
}

function indexExpected(expected: string): ExpectedIndex {
  return {
    shingles: shingles(wordsOf(expected)),
    lines: new Set(
      expected
        .split('\n')
        .map((l) => wordsOf(l).join(' '))
        .filter(Boolean),
    ),
    joined: ` ${wordsOf(expected).join(' ')} `,
  };
}

/**
 * A removed block is article text when at least half of its word 4-grams are in the expected text; a block of
 * fewer than four words (a heading, a label) when the expected text has a line of exactly those words. Single common
 * words ("Share", "Print") appear inside any article's prose, so a short block is never matched word by word.
 */
function isArticleText(blockText: string, expected: ExpectedIndex): boolean {
  const w = wordsOf(blockText);
  if (w.length === 0) return false;
  if (w.length < 4) return expected.lines.has(w.join(' '));
  const own = shingles(w);
  let hit = 0;
  for (const s of own) if (expected.shingles.has(s)) hit++;
  return hit / own.size >= 0.5;
}

/**
 * A removed repeat of a paragraph (the first copy stays) is article text only when the expected text has that
 * paragraph more than once.
 */
function isRepeatedArticleText(blockText: string, expected: ExpectedIndex): boolean {
  const w = wordsOf(blockText).join(' ');
  if (!w) return false;
  const first = expected.joined.indexOf(` ${w} `);
  return first >= 0 && expected.joined.indexOf(` ${w} `, first + 1) >= 0;
}

/**
 * Classifies what the reader removed: each block `extractMainContent` reports in `removed` (the service returns the
 * same list as `rawResponse.removed`), as article text or boilerplate by the page's expected text.
 */
export function classifyRemoved(
  removed: ReadonlyArray<{ rule: ReaderRule; tag: string; text: string }>,
  expected: string,
): RemovedBlock[] {
  const index = indexExpected(expected);
  return removed.map((b) => ({
    ...b,
    words: wordsOf(b.text).length,
    articleText: b.rule === 'duplicate-paragraph' ? isRepeatedArticleText(b.text, index) : isArticleText(b.text, index),
  }));
}

/** Reads one page with aeq's reader; Readability's own text comes from the same read. */
export function tracePage(html: string, url: string, expected: string): TracedPage {
  let readabilityLines = '';
  try {
    const c = extractMainContent(html, url, {
      readabilityArticle: (article) => {
        readabilityLines = toPlainText(article);
      },
    });
    return {
      readabilityText: c.readabilityText ?? '',
      readabilityLines: c.tier.startsWith('readability') ? readabilityLines : '',
      aeqText: withoutHeadline(c.text, c.title),
      aeqFullText: c.text,
      tier: c.tier,
      removed: classifyRemoved(c.removed, expected),
    };
  } catch (e) {
    return {
      readabilityText: '',
      readabilityLines: '',
      aeqText: '',
      aeqFullText: '',
      tier: `failed: ${(e as Error).message}`,
      removed: [],
    };
  }
}

/** aeq's `text` starts with the headline, which no corpus counts as article text; that one line is left out. */
export function withoutHeadline(text: string, title: string): string {
  const [first = '', ...rest] = text.split('\n');
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const [line, head] = [norm(first), norm(title)];
  return line.length > 0 && (line === head || (line.length >= 10 && head.startsWith(line))) ? rest.join('\n') : text;
}

/** Tokens in `kept` that `result` lacks (multiset difference), split by whether the expected text has them. */
export function droppedTokens(
  kept: string,
  result: string,
  expected: string,
): { dropped: number; droppedArticle: number } {
  const left = new Map<string, number>();
  for (const w of wordsOf(result)) left.set(w, (left.get(w) ?? 0) + 1);
  const want = new Map<string, number>();
  for (const w of wordsOf(expected)) want.set(w, (want.get(w) ?? 0) + 1);
  let dropped = 0;
  let droppedArticle = 0;
  for (const w of wordsOf(kept)) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      left.set(w, n - 1);
      continue;
    }
    dropped++;
    const m = want.get(w) ?? 0;
    if (m > 0) {
      droppedArticle++;
      want.set(w, m - 1);
    }
  }
  return { dropped, droppedArticle };
}

/** Word counts of a text (a multiset). */
function bag(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of wordsOf(text)) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/**
 * The words of `kept` that `result` lacks and that no removed block accounts for: text some step dropped without
 * recording it. Every step after Readability records what it removes, so this should be empty on every page.
 */
export function unrecordedDrops(kept: string, result: string, removed: ReadonlyArray<{ text: string }>): string[] {
  const left = bag(result);
  for (const b of removed) for (const [w, n] of bag(b.text)) left.set(w, (left.get(w) ?? 0) + n);
  const out: string[] = [];
  for (const w of wordsOf(kept)) {
    const n = left.get(w) ?? 0;
    if (n > 0) left.set(w, n - 1);
    else out.push(w);
  }
  return out;
}

import type { Readability } from '@mozilla/readability';
import { jsdom, readability } from '../lazy-modules.js';
import { detectLanguage } from '../../text/language.js';
import { appShellEvidence } from '../web/app-shell.js';

/**
 * Main text and metadata of an HTML page, for SOURCE_INFLUENCE's cited pages (docs/analysis.md#s2-4): Readability
 * over a jsdom document, accepted at ≥ 200 characters (`en`) / ≥ 100 (`ko`);
 * else the body without navigation and chrome; else the longer of the two, flagged `short` (a notice or a
 * product card is what some answers cite); none when the page has no readable text or is a JavaScript shell.
 * It runs in the parse pool, whose table sits in the engines layer, so it lives here rather than in
 * src/analysis. Kept apart from WEB_SCRAPE's reader (src/engines/web/) so the two can evolve separately.
 */
export interface ExtractedPage {
  text: string | null;
  textSource: 'extracted' | 'body_fallback' | null;
  /** The text is under the language's minimum; still the page's text. */
  short: boolean;
  metadata: PageMetadata;
}

/** What the page reader keeps for §2.11.3. */
export interface PageMetadata {
  title: string | null;
  ogTitle: string | null;
  siteName: string | null;
  htmlLang: string | null;
  canonical: string | null;
  jsonLd: unknown[];
  /** `name`/`property`/`itemprop` (lower-cased) → first content value. */
  meta: Record<string, string>;
  /** `datetime` of `<time>` elements in document order (first few). */
  timeElements: string[];
  /** `rel=author`, `[itemprop=author]`, `.byline` texts. */
  htmlAuthors: string[];
  readabilityByline: string | null;
  readabilityPublishedTime: string | null;
}

const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TD',
  'TH',
  'TR',
  'UL',
]);
const CHROME_SELECTOR = 'nav, header, footer, aside, script, style, form, noscript, template, svg, iframe';

/** Text of a node with line breaks between block elements (so sentences do not glue together). */
function blockText(root: Node): string {
  const parts: string[] = [];
  const walk = (n: Node) => {
    if (n.nodeType === 3) {
      parts.push(n.textContent ?? '');
      return;
    }
    if (n.nodeType === 11 || n.nodeType === 9) {
      for (const c of Array.from(n.childNodes)) walk(c); // fragment or document root
      return;
    }
    if (n.nodeType !== 1) return;
    const tag = (n as Element).tagName;
    if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'NOSCRIPT' || tag === 'TEMPLATE') return;
    const block = BLOCK_TAGS.has(tag);
    if (block) parts.push('\n');
    for (const c of Array.from(n.childNodes)) walk(c);
    if (block) parts.push('\n');
  };
  walk(root);
  return parts
    .join('')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '')
    .join('\n');
}

function longEnough(text: string, minEn: number, minKo: number): boolean {
  return !isShortText(text, minEn, minKo);
}

/** Under the language's minimum of non-space characters (§2.4). */
export function isShortText(text: string, minEn: number, minKo: number): boolean {
  const chars = text.replace(/\s+/g, '').length;
  return chars < (detectLanguage(text) === 'ko' ? minKo : minEn);
}

function jsonLdBlocks(doc: Document): unknown[] {
  const out: unknown[] = [];
  for (const s of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      const parsed: unknown = JSON.parse(s.textContent ?? '');
      const items = Array.isArray(parsed) ? parsed : [parsed];
      for (const it of items) {
        const graph = typeof it === 'object' && it !== null ? (it as Record<string, unknown>)['@graph'] : undefined;
        if (Array.isArray(graph)) out.push(...graph);
        else out.push(it);
      }
    } catch {
      // invalid JSON-LD is common; skip the block
    }
  }
  return out.slice(0, 50);
}

function metadataOf(doc: Document): Omit<PageMetadata, 'readabilityByline' | 'readabilityPublishedTime'> {
  const meta: Record<string, string> = {};
  for (const m of Array.from(doc.querySelectorAll('meta'))) {
    const key = (m.getAttribute('property') ?? m.getAttribute('name') ?? m.getAttribute('itemprop') ?? '')
      .toLowerCase()
      .trim();
    const content = m.getAttribute('content');
    if (key && content && !(key in meta)) meta[key] = content.trim();
  }
  for (const el of Array.from(doc.querySelectorAll('[itemprop="datePublished"], [itemprop="dateModified"]'))) {
    const key = (el.getAttribute('itemprop') ?? '').toLowerCase();
    const v = el.getAttribute('content') ?? el.getAttribute('datetime') ?? el.textContent ?? '';
    if (v.trim() && !(key in meta)) meta[key] = v.trim();
  }
  const clean = (s: string | null | undefined) => (s?.trim() ? s.replace(/\s+/g, ' ').trim() : null);
  const authors = Array.from(doc.querySelectorAll('[rel="author"], [itemprop="author"], .byline'))
    .map((e) => clean(e.getAttribute('content') ?? e.textContent))
    .filter((s): s is string => s !== null && s.length <= 120);
  return {
    title: clean(doc.querySelector('title')?.textContent),
    ogTitle: clean(meta['og:title']),
    siteName: clean(meta['og:site_name']),
    htmlLang: clean(doc.documentElement.getAttribute('lang')),
    canonical: clean(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')),
    jsonLd: jsonLdBlocks(doc),
    meta,
    timeElements: Array.from(doc.querySelectorAll('time[datetime]'))
      .map((t) => t.getAttribute('datetime') ?? '')
      .filter((s) => s !== '')
      .slice(0, 5),
    htmlAuthors: authors.slice(0, 5),
  };
}

export function extractHtml(html: string, url: string, minCharsEn: number, minCharsKo: number): ExtractedPage {
  const { JSDOM, VirtualConsole } = jsdom();
  const dom = new JSDOM(html, { url, virtualConsole: new VirtualConsole() });
  try {
    const doc = dom.window.document;
    const base = metadataOf(doc);
    let article: ReturnType<Readability['parse']> = null;
    try {
      article = new (readability().Readability)(doc.cloneNode(true) as Document, { charThreshold: 100 }).parse();
    } catch {
      article = null; // Readability throws on some malformed documents; the body fallback still runs
    }
    const metadata: PageMetadata = {
      ...base,
      readabilityByline: article?.byline?.trim() || null,
      readabilityPublishedTime: article?.publishedTime?.trim() || null,
    };
    let extracted = '';
    if (article?.content) {
      extracted = blockText(JSDOM.fragment(article.content));
      if (longEnough(extracted, minCharsEn, minCharsKo))
        return { text: extracted, textSource: 'extracted', short: false, metadata };
    }
    let bodyText = '';
    const body = doc.body?.cloneNode(true) as HTMLElement | undefined;
    if (body) {
      for (const el of Array.from(body.querySelectorAll(CHROME_SELECTOR))) el.remove();
      bodyText = blockText(body);
      if (longEnough(bodyText, minCharsEn, minCharsKo))
        return { text: bodyText, textSource: 'body_fallback', short: false, metadata };
    }
    // A short page is still a source (a JavaScript shell's "Loading…" is not): keep the fuller reading.
    if (appShellEvidence(doc)) return { text: null, textSource: null, short: false, metadata };
    if (bodyText.length > extracted.length)
      return { text: bodyText, textSource: 'body_fallback', short: true, metadata };
    if (extracted) return { text: extracted, textSource: 'extracted', short: true, metadata };
    return { text: null, textSource: null, short: false, metadata };
  } finally {
    dom.window.close();
  }
}

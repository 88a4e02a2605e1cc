import { UpstreamFailure } from '../../domain/engine-errors.js';
import { appShellEvidence } from './app-shell.js';
import { MIN_KEPT_SHARE, pruneBoilerplate, type PruneRule } from './boilerplate.js';
import { declaredArticleBody, declaredBodyElement, declaredBodyIsFuller } from './declared-body.js';
import { densestParagraphBlock, NOT_ARTICLE } from './paragraph-block.js';
import {
  continuesArticle,
  isPartialPick,
  PARTIAL_SHARE,
  proseRegion,
  readableProse,
  removeProseBlocks,
  widens,
  type Prose,
} from './partial-pick.js';
import { normalizeTables, sanitize, type SanitizeRule } from './html-cleanup.js';
import { leadImage, mergeImages, resolveArticleImages, type PageImage } from './page-images.js';
import { toMarkdown, toPlainText } from './page-markdown.js';
import { jsdom, readability } from '../lazy-modules.js';

/** Readability output shorter than this is checked against the structural fallback. */
const MIN_ARTICLE_CHARS = 250;
/** Boilerplate removed on the fallback path (docs/engines.md#main-content). */
const FALLBACK_DROP =
  'nav, header, footer, aside, script, style, noscript, template, ' +
  '[role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"]';

export interface MainContent {
  title: string;
  byline: string | null;
  excerpt: string | null;
  publishedTime: string | null;
  language: string | null;
  canonicalUrl: string | null;
  /** The document base: the final URL, or `<base href>` when the page sets one. */
  baseUrl: string;
  markdown: string;
  text: string;
  images: PageImage[];
  /** Which extraction path produced the content (recorded in `raw` so drift shows in logs). */
  tier: string;
  /** Readability's own text of the article, before any step of ours; null when it found none. */
  readabilityText: string | null;
  /**
   * Each block the cleanup rules and the sanitiser removed from Readability's article, with the rule that removed it.
   */
  removed: RemovedBlock[];
}

/** Every step after Readability that removes text from its article, by name: a cleanup rule or a sanitising step. */
export type ReaderRule = PruneRule | SanitizeRule;

/** A block of Readability's article that a cleanup rule or the sanitiser removed (docs/engines.md#cleanup-rules). */
interface RemovedBlock {
  rule: ReaderRule;
  /** The removed block's tag name (`P`, `UL`, …). */
  tag: string;
  text: string;
}

/** Sees the reader's intermediate steps (the drop tracer reads Readability's article through it). */
export interface ReadObserver {
  /** Readability's article as parsed, before any step of ours; read it at once, as the steps that follow edit it. */
  readabilityArticle?(article: Element): void;
  /** Readability's article once the cleanup rules have run (before the sanitiser); read it at once. */
  articleAfterRules?(article: Element): void;
}

/**
 * The main content of an HTML page as Markdown and text with its images (docs/engines.md#main-content,
 * #markdown-conversion, #page-images): jsdom with the page URL as document URL (so `<base href>` and relative
 * URLs resolve), Readability on a clone, and a structural fallback when Readability finds nothing or little.
 */
export function extractMainContent(html: string, pageUrl: string, observer?: ReadObserver): MainContent {
  // A silent console: page markup errors are not ours to log.
  const { JSDOM, VirtualConsole } = jsdom();
  const dom = new JSDOM('', { url: pageUrl, virtualConsole: new VirtualConsole() });
  try {
    // A DOMParser document takes the window's URL (so `<base href>` and relative URLs resolve) but
    // has no browsing context, so jsdom does not parse the page's style sheets: we never use them,
    // they cost time, and some real CSS makes jsdom's CSS parser throw.
    const parsePage = () => new dom.window.DOMParser().parseFromString(html, 'text/html');
    const doc = parsePage();
    const shell = appShellEvidence(doc);
    if (shell) throw new UpstreamFailure('CONTENT_UNREADABLE', `JavaScript-only app shell (${shell})`);

    // Everything read from the page as it is comes first: Readability then takes this document apart (it runs on
    // the page itself, not on a copy, as cloning the whole page cost as much as a tenth of a read), and the rare
    // page it finds too little in is parsed again for the fallback.
    const meta = pageMetadata(doc);
    const lead = leadImage(doc);
    const baseUrl = doc.baseURI;
    const headline = doc.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    const declared = declaredArticleBody(doc);
    const pageProse = doc.body ? readableProse(doc.body) : { chars: 0, blocks: [] };
    const article = new (readability().Readability)(doc, { charThreshold: 500, keepClasses: true }).parse();

    let container: Element | null = null;
    let tier = 'readability';
    let removed: RemovedBlock[] = [];
    // A removed block's text with a space between its blocks, as aeq's text would have held it (`textContent` runs
    // "Home" and "News" of a menu together).
    const record = (rule: ReaderRule, el: Element) => {
      const text = toPlainText(el).replace(/\s+/g, ' ').trim();
      if (text) removed.push({ rule, tag: el.tagName, text });
    };
    // How much of Readability's pick is prose: its text once every rule, page-scope ones included, has run. A pick
    // that is a footer or a caption (copyright lines, link lists) reads short by this measure, and the fallback is
    // tried, although the article-scope rules below leave those lines in place.
    let found = 0;
    if (article?.content) {
      container = doc.createElement('div');
      // Readability's markup parsed again, not its nodes moved: parsing repairs the nesting Readability's edits can
      // leave (a heading inside a paragraph), which the cleanup rules and Turndown read differently.
      container.innerHTML = article.content;
      const wider = widerPick(container, pageProse, parsePage);
      if (wider) {
        container = wider;
        tier = 'readability:widened';
      }
      const region = regionPick(container, pageProse, parsePage);
      if (region) {
        container = region;
        tier = `${tier}:region`;
      }
      observer?.readabilityArticle?.(container);
      // Pruning keeps at least MIN_KEPT_SHARE of the text, so a pick that long cannot read short: only a short pick
      // pays for the probe.
      found = textLength(container);
      if (found * MIN_KEPT_SHARE < MIN_ARTICLE_CHARS) {
        const probe = container.cloneNode(true) as Element;
        pruneBoilerplate(probe, 'page');
        found = textLength(probe);
      }
      pruneBoilerplate(container, 'article', {
        removed: record,
        undone: () => {
          removed = [];
        },
      });
      observer?.articleAfterRules?.(container);
    }
    // Readability found nothing, or only a footer or a caption: look for the page's own
    // paragraphs instead, and keep whichever reads longer.
    if (found < MIN_ARTICLE_CHARS) {
      const fb = fallbackContainer(parsePage());
      if (fb) pruneBoilerplate(fb.root, 'page');
      if (fb && textLength(fb.root) > found) {
        container = fb.root;
        tier = `fallback:${fb.anchor}`;
        removed = [];
      }
    }
    // The page's structured data declares a body that holds the article the markup shows only part of (a paywall's
    // teaser, a lazily loaded page): the declared body is read instead (docs/engines.md#declared-body).
    // The declared body's words are counted in its text, not in the markup some platforms publish it as.
    const declaredRoot = declared ? declaredBodyElement(doc, declared) : null;
    const declaredText = declaredRoot?.textContent ?? '';
    const shown = container ? toPlainText(container) : '';
    if (
      declaredRoot &&
      (shown || declaredText.length >= MIN_ARTICLE_CHARS) &&
      declaredBodyIsFuller(shown, declaredText)
    ) {
      container = declaredRoot;
      tier = 'declared-body';
      removed = [];
    }
    if (!container || textLength(container) === 0)
      throw new UpstreamFailure('CONTENT_UNREADABLE', 'no readable content in the page');

    // On Readability's article what the sanitiser removes is recorded too; the fallback's removals are not.
    sanitize(container, tier.startsWith('readability') ? record : undefined);
    normalizeTables(container);
    absolutizeLinks(container, baseUrl);
    const images = mergeImages(lead, resolveArticleImages(container, baseUrl));
    const body = { markdown: toMarkdown(container), text: toPlainText(container) };
    if (!body.text) throw new UpstreamFailure('CONTENT_UNREADABLE', `no readable text (${tier})`);

    const title = withoutSiteName((article?.title?.trim() || meta.title || '').replace(/\s+/g, ' '), headline);
    return {
      title,
      byline: article?.byline?.trim() || meta.byline,
      excerpt: article?.excerpt?.trim() || meta.excerpt,
      publishedTime: article?.publishedTime?.trim() || meta.publishedTime,
      language: meta.language ?? (article?.lang?.trim() || null),
      canonicalUrl: meta.canonicalUrl,
      baseUrl,
      markdown: withTitleHeading(body.markdown, title),
      text: withTitleLine(body.text, title),
      images,
      tier,
      readabilityText: article?.textContent ?? null,
      removed,
    };
  } finally {
    dom.window.close();
  }
}

/**
 * Readability's pick holds only part of the page's prose (one section of a long guide, two entries of a list): it is
 * read again with a character threshold of that share of the page's prose, so that Readability's own retries run
 * (without its unlikely-candidate filter, then its class weights, then its conditional cleaning) and the longest of
 * its attempts is kept when none reaches the threshold. The wider pick is taken when it widens the first one
 * (docs/engines.md#partial-pick); null otherwise.
 */
function widerPick(first: Element, page: Prose, parsePage: () => Document): Element | null {
  const firstProse = readableProse(first);
  if (!isPartialPick(firstProse, page)) return null;
  const doc = parsePage();
  const charThreshold = Math.ceil(PARTIAL_SHARE * page.chars);
  const again = new (readability().Readability)(doc, { charThreshold, keepClasses: true }).parse();
  if (!again?.content) return null;
  const wider = doc.createElement('div');
  wider.innerHTML = again.content;
  return widens(readableProse(wider), firstProse) ? wider : null;
}

/**
 * Readability's pick, still partial after its retries, widened to the region of the page around it that holds the
 * article's share of the page's prose (docs/engines.md#partial-pick): on the path from the region down to the pick,
 * the sibling blocks that continue the article (the next sections or rows, of the same kind as the pick's own) are
 * kept around Readability's article, without chrome and cleaned by the page-scope rules; null when there is no such
 * region or what it adds still leaves the pick partial.
 */
function regionPick(first: Element, page: Prose, parsePage: () => Document): Element | null {
  const firstProse = readableProse(first);
  if (!isPartialPick(firstProse, page)) return null;
  const doc = parsePage();
  const found = doc.body ? proseRegion(doc.body, firstProse, page) : null;
  if (!found) return null;
  found.pick.replaceWith(doc.createElement('aeq-pick'));
  const root = found.region.cloneNode(true) as Element;
  const slot = root.querySelector('aeq-pick');
  if (!slot) return null;
  for (const n of [...root.querySelectorAll(FALLBACK_DROP)]) n.remove();
  for (const f of [...root.querySelectorAll('form')]) if (textLength(f) < 200) f.remove();
  for (const n of [...root.querySelectorAll('[class], [id]')])
    if (NOT_ARTICLE.test(`${n.getAttribute('class') ?? ''} ${n.getAttribute('id') ?? ''}`)) n.remove();
  for (
    let node = slot, parent = slot.parentElement;
    parent && node !== root;
    node = parent, parent = node.parentElement
  )
    for (const sib of [...parent.children]) if (sib !== node && !continuesArticle(sib, node)) sib.remove();
  // Blocks Readability took in from beside its top candidate are in its article already.
  removeProseBlocks(root, new Set(firstProse.blocks));
  pruneBoilerplate(root, 'page');
  if (isPartialPick({ chars: firstProse.chars + readableProse(root).chars, blocks: [] }, page)) return null;
  // The pick's place, unless a cleanup step took the block around it (then the region is no widening of the pick).
  const at = root.querySelector('aeq-pick');
  if (!at) return null;
  at.replaceWith(...first.childNodes);
  return root;
}

interface PageMetadata {
  title: string | null;
  byline: string | null;
  excerpt: string | null;
  publishedTime: string | null;
  language: string | null;
  canonicalUrl: string | null;
}

function pageMetadata(doc: Document): PageMetadata {
  const content = (sel: string) => doc.querySelector(sel)?.getAttribute('content')?.trim() || null;
  const canonical = doc.querySelector('link[rel~="canonical"][href]')?.getAttribute('href');
  return {
    title:
      content('meta[property="og:title"]') ??
      (doc.title.trim() || doc.querySelector('h1')?.textContent?.trim() || null),
    byline: content('meta[name="author"]'),
    excerpt: content('meta[name="description"]') ?? content('meta[property="og:description"]'),
    publishedTime:
      content('meta[property="article:published_time"]') ??
      doc.querySelector('time[datetime]')?.getAttribute('datetime') ??
      null,
    language:
      doc.documentElement.getAttribute('lang')?.trim() || content('meta[http-equiv="content-language" i]') || null,
    canonicalUrl: canonical ? absoluteHttpUrl(canonical, doc.baseURI) : null,
  };
}

/**
 * The block holding the page's densest paragraphs, widened to `<main>`, `<article>` or
 * `[role=main]` when one of them contains it; without paragraphs, those anchors or `<body>`.
 * Page chrome and small forms are removed from the copy.
 */
function fallbackContainer(doc: Document): { root: Element; anchor: string } | null {
  const dense = densestParagraphBlock(doc);
  const anchors = ['main', 'article', '[role="main"]'];
  const choice =
    (dense && anchors.map((a) => ({ el: doc.querySelector(a), anchor: a })).find((c) => c.el?.contains(dense))) ??
    (dense ? { el: dense, anchor: 'paragraphs' } : null) ??
    [...anchors, 'body']
      .map((a) => ({ el: doc.querySelector(a), anchor: a }))
      .find((c) => c.el && textLength(c.el) > 0);
  if (!choice?.el) return null;
  const root = choice.el.cloneNode(true) as Element;
  for (const n of [...root.querySelectorAll(FALLBACK_DROP)]) n.remove();
  // Search boxes and newsletter forms; a form wrapping the whole page (ASP.NET) stays.
  for (const f of [...root.querySelectorAll('form')]) if (textLength(f) < 200) f.remove();
  return textLength(root) > 0 ? { root, anchor: choice.anchor.replace(/[[\]"=]/g, '') } : null;
}

function absolutizeLinks(root: Element, base: string): void {
  for (const a of root.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') ?? '';
    if (href.startsWith('#')) continue;
    const abs = absoluteHttpUrl(href, base);
    if (abs) a.setAttribute('href', abs);
    else a.removeAttribute('href');
  }
}

function absoluteHttpUrl(raw: string, base: string): string | null {
  try {
    const u = new URL(raw.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

function textLength(el: Element): number {
  return (el.textContent ?? '').replace(/\s+/g, ' ').trim().length;
}

/** Readability usually leaves the title out of the content; the Markdown starts with it once. */
function withTitleHeading(markdown: string, title: string): string {
  if (!title) return markdown;
  const firstHeading = /^#{1,6}\s+(\S.*)$/m.exec(markdown.split('\n').slice(0, 3).join('\n'))?.[1];
  if (firstHeading && sameText(firstHeading, title)) return markdown;
  return `# ${title}\n\n${markdown}`;
}

function withTitleLine(text: string, title: string): string {
  if (!title) return text;
  const first = text.split('\n', 1)[0] ?? '';
  return sameText(first, title) ? text : `${title}\n\n${text}`;
}

/** The page's own headline (its first `h1`) when the title is that headline plus the site name ("Headline -- Site"). */
function withoutSiteName(title: string, h1: string): string {
  return h1 && h1.length < title.length && sameText(h1, title) ? h1 : title;
}

/** The same title, allowing for the site name one of them adds ("Title | Site", "Title - Site"). */
function sameText(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .replace(/\\(.)/g, '$1')
      .replace(/[\s*_#]+/g, ' ')
      .trim()
      .toLowerCase();
  const [x, y] = [norm(a), norm(b)];
  if (x === y) return true;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return short.length >= 10 && long.startsWith(short) && /^\s*[|\-–—:·•»]/.test(long.slice(short.length));
}

/**
 * Page furniture left in the content we convert: menus, "related" link lists, photo captions, datelines, share bars,
 * cookie notices, copyright lines and repeated blocks. The rules run in one of two scopes:
 *
 * - `article`: on the article Readability picked. Readability has already weighed each block's link density and class
 *   names, so a rule here removes text Readability decided to keep, and is kept only because, on the real-page corpus
 *   (test/fixtures/real/web), at most a fifth of the words it removes are article text by the corpus's annotations
 *   (docs/engines.md#cleanup-rules has the figures on that corpus and on a held-out one; test/real/web-corpus.test.ts
 *   checks them). Link-dense paragraphs (product lists, card headlines), copyright lines and bare addresses failed
 *   that bar and are left alone; a paragraph is dropped as a repeat only inside a repeated run of paragraphs.
 * - `page`: on the structural fallback (`<main>`, `<article>`, or the whole body) when Readability found nothing or
 *   little. Nobody has weighed those blocks yet, so every rule runs, link blocks and single repeats included.
 *
 * Every rule removes only blocks that are small next to the whole content, and the pruning is undone when it would
 * leave less than a third of the text, so a page whose article itself carries such a class name keeps its text.
 */

/** Class or id fragments of furniture blocks (matched anywhere, as Readability matches its own). */
const FURNITURE_FRAGMENT = new RegExp(
  [
    'caption|credit|comment(?!ary)|related|recommend|newsletter|promo|share|sharing|social|breadcrumb|byline',
    'dateline|timestamp|author-?(?:bio|details|info|box)|subscribe|signup|sign-up',
    'cookie-?(?:banner|notice|bar|consent|policy)|consent|gdpr',
    'advert|sponsor|outbrain|taboola|read-?more|more-?stories',
  ].join('|'),
  'i',
);
/** Whole class tokens that mark an ad slot, text for screen readers only, or a call to action. */
const FURNITURE_TOKEN = new RegExp(
  `^(?:${['ads?', 'sr-only|visually-hidden|screen-reader-text|offscreen', 'cta(?:[-_].*)?'].join('|')})$`,
  'i',
);
/** Whole class tokens that hide a block. */
const HIDDEN_TOKEN = /^(?:hidden|hide|is-hidden|d-none|invisible)$/i;
/**
 * Class words of a disclosure widget: an accordion's answer, a collapsed section, a tab's panel. What it hides is
 * article text the reader opens with a click, not furniture.
 */
const DISCLOSURE_WORDS = new Set([
  'accordion',
  'collapse',
  'collapsible',
  'collapsed',
  'expand',
  'expandable',
  'panel',
  'tab',
  'faq',
  'toggle',
]);
/** Image galleries: their images stay, their captions, counters and controls go. */
const GALLERY_FRAGMENT = /gallery|slideshow|carousel|slider/i;
/**
 * The words of a class or id: split at spaces, `-`, `_` and lower-to-upper case changes (`authorBio`,
 * `post__author`).
 */
const CLASS_WORD_BREAK = /[\s_-]+|(?<=[a-z])(?=[A-Z])/;
/** Class words of the author's card: a bio or an author box, not a quotation's or a testimonial's attribution. */
const AUTHOR_WORDS = new Set(['author', 'authors', 'bio']);
const ATTRIBUTION_WORDS = new Set([
  'quote',
  'blockquote',
  'testimonial',
  'testimonials',
  'review',
  'reviews',
  'pullquote',
]);
/** A class word marking a call to action ("blog-cta", "ctaBanner"). */
const CTA_WORD = 'cta';
const HEADING = /^H[1-6]$/;
/**
 * The caption of a numbered figure or table ("Figure 2. Gas consumption…", "Table 3 | Risk matrix"): the text refers
 * to it by its number, so it is part of the article, unlike a photo's caption or credit.
 */
const NUMBERED_FIGURE = /^(?:fig(?:ure)?|table|chart|graph|exhibit|diagram)\.?\s{0,3}\d{1,3}(?!\d)/i;

/** The whole text of a block that is a control or a section label, not prose. */
const UI_LABELS = [
  'advertisement|advert|ad|sponsored(?: content)?|skip to (?:main )?content|sign in|log ?in|subscribe(?: now)?',
  'share(?: this(?: article| story)?)?|close|caption|tags?|breaking news|latest news|read more',
  'continue reading(?: below)?|related(?: articles| stories| content| links)?|you (?:may|might) also like',
  "don'?t miss|recommended(?: for you)?|more stories|most popular|trending(?: now)?",
  'this slideshow requires javascript|loading',
  String.raw`image \d+ of \d*|\d+ ?of ?\d+|\d+ comments?|comments?`,
  'print|e-?mail|facebook|twitter|whatsapp|pinterest|linkedin|follow us',
];
const UI_LABEL = new RegExp(String.raw`^(?:${UI_LABELS.join('|')})[\s.:!…/]*$`, 'i');
/** A block that is only a URL, a handle or an e-mail address. */
const BARE_ADDRESS = /^(?:https?:\/\/\S+|(?:www\.|twitter\.com\/|instagram\.com\/)\S+|@\w+|[\w.+-]+@[\w-]+\.[\w.]+)$/i;

/** Headings that introduce a block of links to other pages. */
const LINKS_HEADING = new RegExp(
  "^(?:related|you (?:may|might) also like|don'?t miss|more (?:from|stories|on)|recommended|" +
    String.raw`read (?:more|next)|latest|trending|popular|further reading)\b`,
  'i',
);

/** An English month name or its abbreviation, standing as a word of its own. */
const MONTH_NAMES = [
  'jan(?:uary)?',
  'feb(?:ruary)?',
  'mar(?:ch)?',
  'apr(?:il)?',
  'may',
  'june?',
  'july?',
  'aug(?:ust)?',
  'sept?(?:ember)?',
  'oct(?:ober)?',
  'nov(?:ember)?',
  'dec(?:ember)?',
];
const MONTH = String.raw`(?<![\p{L}\p{N}])(?:${MONTH_NAMES.join('|')})(?!\p{L})\.?`;
const YEAR = String.raw`(?:19|20)\d{2}(?!\d)`;
/** Not preceded by a letter or digit: `\b` in JavaScript knows only ASCII letters, and is no boundary for others. */
const START = String.raw`(?<![\p{L}\p{N}])`;
/**
 * The marks of a date: a time of day, a numeric date (day first or year first), an English month name with a day and
 * a year ("Dec 20, 2025", "19 November 2019"), a day, a month word and a year as Portuguese, Spanish ("22 de outubro de
 * 2010") or German ("19. November 2019") write them, or a CJK date. A number and a year alone ("$4.88 million in
 * 2024", "Volume 12, 2024") are no date. Every part is bounded, and the test runs on short lines only.
 */
const DATE_MARK = new RegExp(
  [
    String.raw`${START}\d{1,2}:\d{2}(?!\d)`,
    String.raw`${START}\d{1,2}[./-]\d{1,2}[./-]\d{2,4}(?!\d)`,
    String.raw`${START}${YEAR}[./-]\d{1,2}[./-]\d{1,2}(?!\d)`,
    String.raw`${MONTH}\s{1,3}\d{1,2}(?:st|nd|rd|th)?,?\s{1,3}${YEAR}`,
    String.raw`${START}\d{1,2}(?:st|nd|rd|th)?\s{1,3}${MONTH},?\s{1,3}${YEAR}`,
    String.raw`${START}\d{1,2}\s{1,3}de\s{1,3}\p{L}{3,12}\s{1,3}de\s{1,3}${YEAR}`,
    String.raw`${START}\d{1,2}\.\s{1,3}\p{L}{3,12}\s{1,3}${YEAR}`,
    String.raw`${YEAR}\s{0,3}[年년]\s{0,3}\d{1,2}\s{0,3}[月월]`,
  ].join('|'),
  'iu',
);
/** Longer lines are never datelines; the date test does not read them at all. */
const MAX_DATELINE_CHARS = 200;
/** A dateline without a "Published"/"Updated" label has at most this many words. */
const MAX_DATELINE_WORDS = 8;
/**
 * A line holding a URL (a reference's link, whose path carries a date: `/2011/09/07/`), a URL's query string (an API
 * call written out: `GET /reports?from=2025-01-01&to=2025-12-31`) or code (`{ "order_date": … }`) is no dateline,
 * whatever dates it holds. (A name run after `?` or `&` stops at the next `?` or `&`: the test stays linear.)
 */
const NOT_A_DATELINE = /:\/\/|www\.|[{}]|[?&][\w.-]+=/;
const DATELINE = /^(?:published|updated|posted|last (?:updated|modified)|created)\b/i;
const COPYRIGHT = /©|\ball rights reserved\b|\bcopyright \d{4}\b/i;
const COOKIE_NOTICE = /\b(?:uses?|using) cookies\b|\bcookie policy\b/i;

const DATELINE_TAGS = new Set(['P', 'DIV', 'SECTION', 'SPAN', 'TIME', 'SMALL', 'LI', 'DD', 'DT', 'ADDRESS']);
const BLOCKS =
  'p, div, section, li, ul, ol, dl, dd, dt, h2, h3, h4, h5, h6, figure, table, blockquote, span, small, time, address';
const LEAF_BLOCKS = 'p, li, h2, h3, h4, h5, h6, blockquote, dd, dt';

/** The cleanup rules that run on Readability's article, by name (the drop tracer and its tests report them so). */
export type ArticleRule =
  | 'teaser-article'
  | 'navigation'
  | 'figcaption'
  | 'gallery-caption'
  | 'furniture-class'
  | 'links-heading'
  | 'ui-label'
  | 'dateline'
  | 'cookie-notice'
  | 'duplicate-paragraph'
  | 'author-card'
  | 'form';
/** Rules that run only on the fallback path: on Readability's article they removed article text too often. */
type PageOnlyRule = 'bare-address' | 'copyright' | 'link-block';
export type PruneRule = ArticleRule | PageOnlyRule;

/** Told of every block a rule removes, before it goes; `undone` when the whole pruning was undone. */
export interface PruneTrace {
  removed(rule: PruneRule, el: Element): void;
  undone?(): void;
}

/** Where the rules run: Readability's article, or the page's own container on the fallback path. */
export type PruneScope = 'article' | 'page';

/** The pruning is undone when it would keep less than this share of the text, so it never keeps less. */
export const MIN_KEPT_SHARE = 1 / 3;

export function pruneBoilerplate(root: Element, scope: PruneScope, trace?: PruneTrace): void {
  const before = textLength(root);
  if (before === 0) return;
  const pruned = root.cloneNode(true) as Element;
  prune(pruned, before, scope, trace);
  if (textLength(pruned) < before * MIN_KEPT_SHARE) {
    trace?.undone?.();
    return;
  }
  root.replaceChildren(...pruned.childNodes);
}

function prune(root: Element, total: number, scope: PruneScope, trace: PruneTrace | undefined): void {
  const drop = (rule: PruneRule, el: Element) => {
    trace?.removed(rule, el);
    el.remove();
  };
  // A block may go only while it is small next to the article (a short article keeps a floor).
  const small = (el: Element) => textLength(el) <= Math.max(total * 0.2, 300);
  const inside = (el: Element) => el !== root && root.contains(el);

  // Several <article> elements side by side: the longest is the story, the rest are teasers.
  const articles = [...root.querySelectorAll('article')].filter((a) => !a.parentElement?.closest('article'));
  if (articles.length > 1) {
    const main = articles.reduce((a, b) => (textLength(b) > textLength(a) ? b : a));
    for (const a of articles) if (a !== main && textLength(a) < textLength(main) * 0.3) drop('teaser-article', a);
  }

  for (const el of [
    ...root.querySelectorAll('nav, [role="navigation"], [role="menu"], [role="menubar"], figcaption'),
  ]) {
    if (!inside(el) || !small(el)) continue;
    if (el.tagName !== 'FIGCAPTION') drop('navigation', el);
    else if (!NUMBERED_FIGURE.test(norm(el.textContent))) drop('figcaption', el);
  }
  for (const el of [...root.querySelectorAll('form')]) if (inside(el) && small(el)) drop('form', el);
  for (const el of [...root.querySelectorAll('[class], [id], [itemprop]')]) {
    // A heading's id is a slug of its own text ("what-are-hr-shared-services", "the-earned-income-tax-credit") and
    // code highlighters mark tokens with classes such as "comment": neither names page furniture.
    if (!inside(el) || HEADING.test(el.tagName) || el.closest('pre, code')) continue;
    const cls = el.getAttribute('class') ?? '';
    const name = `${cls} ${el.getAttribute('id') ?? ''}`;
    const words = name.split(CLASS_WORD_BREAK).map((w) => w.toLowerCase());
    if (isAuthorCard(el, words) && small(el)) drop('author-card', el);
    else if (GALLERY_FRAGMENT.test(name) && el.querySelector('img, picture') && small(el)) {
      keepImagesAndSlideText(el, (rest) => trace?.removed('gallery-caption', rest));
    } else if (
      (FURNITURE_FRAGMENT.test(name) ||
        isOverlay(el, name) ||
        cls.split(/\s+/).some((t) => FURNITURE_TOKEN.test(t)) ||
        words.includes(CTA_WORD) ||
        hiddenByClass(el, cls, words)) &&
      small(el)
    )
      drop('furniture-class', el);
  }
  for (const h of [...root.querySelectorAll('h2, h3, h4, h5, h6')]) {
    if (!inside(h) || !LINKS_HEADING.test(norm(h.textContent))) continue;
    // The heading goes with the link list it introduces; alone, only when it is a bare label ("Related articles"),
    // not a section title that starts with the same word ("Popular types of marketing videos").
    const next = h.nextElementSibling;
    // A paragraph after it is prose that links its sources, not a list of links.
    const list = next && next.tagName !== 'P' && linkDensity(next) > 0.5 && small(next);
    if (list) drop('links-heading', next);
    if (list || norm(h.textContent).split(' ').length <= 3) drop('links-heading', h);
  }
  for (const el of [...root.querySelectorAll(BLOCKS)]) {
    if (!inside(el)) continue;
    const text = norm(el.textContent);
    if (!text) continue;
    const rule = blockRule(el, text, text.split(' ').length, small, scope);
    if (rule) drop(rule, el);
  }
  for (const el of repeatedParagraphs(root, scope, total)) if (inside(el)) drop('duplicate-paragraph', el);
}

/**
 * Repeats of a prose paragraph (the first copy stays): a gallery caption, a teaser or a print copy repeating the text.
 * Short or list-like lines (menus, schedules, recipes) legitimately repeat, and so do a paragraph or a few in an
 * article (an interview's recurring question, the same meal in each day of a plan). So in an article only a copy of
 * the text goes: a run of two or more consecutive blocks repeating, in order, blocks met before, with a prose paragraph
 * among them, that holds at least a quarter of the article's text. On the page scope any repeated prose paragraph goes.
 */
function repeatedParagraphs(root: Element, scope: PruneScope, total: number): Element[] {
  const leaves = [...root.querySelectorAll(LEAF_BLOCKS)].filter((el) => !el.querySelector(LEAF_BLOCKS));
  const texts = leaves.map((el) => norm(el.textContent));
  const prose = texts.map((t) => t.length >= 100 && /[.!?"”’)]$/.test(t));
  const firstAt = new Map<string, number>();
  const repeatOf = texts.map((t, i) => {
    if (!t) return -1;
    const first = firstAt.get(t);
    if (first === undefined) firstAt.set(t, i);
    return first ?? -1;
  });
  const out: Element[] = [];
  for (let i = 0; i < leaves.length; ) {
    const first = repeatOf[i] ?? -1;
    if (first < 0) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < leaves.length && repeatOf[end] === first + (end - i) && first + (end - i) < i) end++;
    const run = leaves.slice(i, end);
    const hasProse = prose.slice(i, end).some(Boolean);
    const copy = run.length >= 2 && texts.slice(i, end).join(' ').length >= total / 4;
    if (hasProse && (scope === 'page' || copy)) out.push(...run);
    i = end;
  }
  return out;
}

/** The rule that removes this block by its own text, if one does. */
function blockRule(
  el: Element,
  text: string,
  words: number,
  small: (el: Element) => boolean,
  scope: PruneScope,
): PruneRule | null {
  const page = scope === 'page';
  const short = text.length <= MAX_DATELINE_CHARS;
  if (UI_LABEL.test(text)) return 'ui-label';
  if (page && BARE_ADDRESS.test(text)) return 'bare-address';
  if (
    short &&
    words <= 15 &&
    DATELINE.test(text) &&
    !NOT_A_DATELINE.test(text) &&
    (DATE_MARK.test(text) || /\bago\b/i.test(text))
  )
    return 'dateline';
  if (short && words <= MAX_DATELINE_WORDS && isDateline(el, text)) return 'dateline';
  if (page && words <= 40 && COPYRIGHT.test(text)) return 'copyright';
  if (words <= 60 && COOKIE_NOTICE.test(text)) return 'cookie-notice';
  if (page && isLinkBlock(el, words) && small(el)) return 'link-block';
  return null;
}

/** Class or id fragments of an overlay box. */
const OVERLAY_FRAGMENT = /popup|pop-up|modal/i;
/** Elements that can be an overlay box; a link or a span named so only opens one ("popup-iframe"). */
const OVERLAY_TAGS = new Set(['DIV', 'SECTION', 'ASIDE', 'DIALOG', 'FORM', 'UL']);

/**
 * An overlay: a box shown over the page, never part of its text: a dialog (`role="dialog"` or `"alertdialog"`,
 * `aria-modal="true"`), or a block whose class or id names a popup or a modal (a consent or sign-up popup, a search
 * modal, a "you already reacted" alert that Readability keeps when it retries without its own class filter).
 */
function isOverlay(el: Element, name: string): boolean {
  const role = el.getAttribute('role')?.toLowerCase();
  if (role === 'dialog' || role === 'alertdialog' || el.getAttribute('aria-modal') === 'true') return true;
  return OVERLAY_TAGS.has(el.tagName) && OVERLAY_FRAGMENT.test(name);
}

/**
 * A block a class hides, but not a disclosure widget's hidden part (an accordion's answer) or a table row behind
 * "show more", which are article text waiting for a click. A block hidden on small screens only (`d-none d-md-block`)
 * still goes: on the pages read, those were teasers of other articles far more often than article text.
 */
function hiddenByClass(el: Element, cls: string, words: readonly string[]): boolean {
  const tokens = cls.split(/\s+/);
  if (!tokens.some((t) => HIDDEN_TOKEN.test(t))) return false;
  return el.tagName !== 'TR' && !words.some((w) => DISCLOSURE_WORDS.has(w));
}

/**
 * The author's card: a block whose class or id names the author (`author-bio`, `about_author`, `post__author`) or
 * that schema.org microdata marks as the article's author (`itemprop="author"`). A quotation's or a testimonial's
 * attribution (`Quote_author`, `testimonial-author-name`) is part of the article and is not one.
 */
function isAuthorCard(el: Element, words: readonly string[]): boolean {
  const named =
    words.some((w) => AUTHOR_WORDS.has(w)) || /(?:^|\s)author(?:\s|$)/i.test(el.getAttribute('itemprop') ?? '');
  return named && !words.some((w) => ATTRIBUTION_WORDS.has(w)) && !el.closest('blockquote, q, figure');
}

/**
 * A line that ends a sentence: a sentence terminal of any script (`.`, `!`, `?`, the CJK `。`, `！`, `？`, the Devanagari
 * danda, the Arabic question mark, …) with only closing quotes or brackets after it (`。」`, `."`). A dateline is a
 * label, not a sentence.
 */
const SENTENCE_END = /\p{Sentence_Terminal}[\p{Pe}\p{Pf}"']{0,3}$/u;

/** A short line with a date or a time (not a table, heading or quoted post, which keep theirs). */
function isDateline(el: Element, text: string): boolean {
  return (
    DATELINE_TAGS.has(el.tagName) &&
    !el.closest('blockquote, table') &&
    !NOT_A_DATELINE.test(text) &&
    DATE_MARK.test(text) &&
    !SENTENCE_END.test(text)
  );
}

/**
 * Only blocks that stand on their own can be link blocks: an inline element (a linked phrase inside a sentence) and a
 * heading (the headline of a card on an index page, or of a section) are article text even when all of it is a link.
 */
const LINK_BLOCK_TAGS = new Set(['UL', 'OL', 'DL', 'P', 'LI', 'DD', 'DIV', 'SECTION', 'TABLE', 'BLOCKQUOTE']);

/** A menu, a list of headlines, or a call to action: almost all of its text is link text. */
function isLinkBlock(el: Element, words: number): boolean {
  if (!LINK_BLOCK_TAGS.has(el.tagName) || !el.querySelector('a')) return false;
  const density = linkDensity(el);
  if (el.tagName === 'UL' || el.tagName === 'OL' || el.tagName === 'DL') return density > 0.6;
  if (el.tagName === 'P' || el.tagName === 'LI' || el.tagName === 'DD') return density > 0.75 && words <= 25;
  return density > 0.7;
}

/** A text cut short ("…", "..."): the excerpt of another page on a card, not a slide's own text. */
const TRUNCATED = /(?:…|\.\.\.)\s*$/;
/** Class words of a slide's parts that are not its prose: a caption, a credit, another page's excerpt or teaser. */
const SLIDE_NOT_PROSE = /caption|credit|excerpt|teaser/i;
/** A slide's own paragraph has at least this many words (a photo's caption is a line, a counter a number). */
const MIN_SLIDE_PROSE_WORDS = 15;

/**
 * A gallery keeps its images and the prose of its slides, and loses the rest of its text: captions, credits, counters
 * ("3 of 12") and controls. A slide's prose is a paragraph (`<p>`) of at least `MIN_SLIDE_PROSE_WORDS` words ending a
 * sentence, not cut short ("…") and not inside a caption or a card's excerpt: in a slideshow article ("The 10 best…",
 * one paragraph per slide) or a hero slider with a lead sentence, that text is the article. `removed` is told of the
 * gallery as it is without what stays.
 */
function keepImagesAndSlideText(el: Element, removed: (rest: Element) => void): void {
  const prose = new Set<Element>([...el.querySelectorAll('p')].filter((p) => isSlideProse(p, el)));
  // An image inside a kept paragraph stays where it is.
  const kept = [...el.querySelectorAll('picture, img, p')].filter((n) => {
    if (n.tagName === 'P') return prose.has(n);
    const p = n.closest('p');
    return (n.tagName === 'PICTURE' || !n.closest('picture')) && !(p && prose.has(p));
  });
  // Kept paragraphs leave the gallery first, so that what is reported removed is what goes.
  for (const n of kept) if (n.tagName === 'P') n.remove();
  removed(el);
  el.replaceChildren(...kept);
}

function isSlideProse(p: Element, gallery: Element): boolean {
  const text = norm(p.textContent);
  if (text.split(' ').length < MIN_SLIDE_PROSE_WORDS || !SENTENCE_END.test(text) || TRUNCATED.test(text)) return false;
  for (let a: Element | null = p; a && a !== gallery; a = a.parentElement) {
    const name = `${a.getAttribute('class') ?? ''} ${a.getAttribute('id') ?? ''}`;
    if (a.tagName === 'FIGCAPTION' || SLIDE_NOT_PROSE.test(name)) return false;
  }
  return true;
}

function linkDensity(el: Element): number {
  const all = textLength(el);
  if (!all) return 0;
  let linked = 0;
  for (const a of el.querySelectorAll('a')) linked += textLength(a);
  return linked / all;
}

function textLength(el: Element): number {
  return norm(el.textContent).length;
}

function norm(s: string | null | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

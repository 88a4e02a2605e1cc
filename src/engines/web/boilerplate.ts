/**
 * Page furniture that Readability keeps inside the article it picks: menus, "related" link
 * lists, photo captions and credits, datelines, share bars, cookie notices, copyright lines and
 * repeated blocks. Measured on the real-page corpus (test/fixtures/real/web), these are what the
 * article-extraction benchmarks leave out of an article body, and what costs Readability most of
 * its precision there.
 *
 * Every rule removes only blocks that are small next to the whole article, and the pruning is
 * undone when it would leave less than a third of the text, so a page whose article itself
 * carries such a class name, or consists of links, keeps its text.
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
/** Whole class tokens that hide a block, mark an ad slot or a call to action. */
const FURNITURE_TOKEN = new RegExp(
  `^(?:${[
    'ads?|hidden|hide|is-hidden|d-none|invisible',
    'sr-only|visually-hidden|screen-reader-text|offscreen',
    'cta(?:[-_].*)?',
  ].join('|')})$`,
  'i',
);
/** Image galleries: their images stay, their captions, counters and controls go. */
const GALLERY_FRAGMENT = /gallery|slideshow|carousel|slider/i;

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

/** A time of day, or a numeric date, or a year next to a day number: the marks of a dateline. */
const DATE_MARK = new RegExp(
  [
    String.raw`\b\d{1,2}:\d{2}\b`,
    String.raw`\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b`,
    String.raw`\b(?:19|20)\d{2}\b.*\b(?:[1-9]|[12]\d|3[01])\b`,
    String.raw`\b(?:[1-9]|[12]\d|3[01])\b.*\b(?:19|20)\d{2}\b`,
  ].join('|'),
);
const DATELINE = /^(?:published|updated|posted|last (?:updated|modified)|created)\b/i;
const BYLINE = /^[Bb][Yy]:?\s+\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,3}/u;
const COPYRIGHT = /©|\ball rights reserved\b|\bcopyright \d{4}\b/i;
/** A photo credit line, or a caption that ends with its credit. */
const CREDIT_LINE =
  /^\(?(?:photo(?:graph)?s?|images?|pictures?)(?: credit)?(?: by|:)|^(?:credit|getty images|ap photo)\b/i;
const CREDIT_TAIL =
  /(?:\((?:image|photo|picture)s?(?: credit)?:[^)]*\)|\((?:AP|AFP|Reuters) Photo[^)]*\)|Credit: [^.]{2,60})$/i;
const COOKIE_NOTICE = /\b(?:uses?|using) cookies\b|\bcookie policy\b/i;

const DATELINE_TAGS = new Set(['P', 'DIV', 'SECTION', 'SPAN', 'TIME', 'SMALL', 'LI', 'DD', 'DT', 'ADDRESS']);
const BLOCKS =
  'p, div, section, li, ul, ol, dl, dd, dt, h2, h3, h4, h5, h6, figure, table, blockquote, span, small, time, address';
const LEAF_BLOCKS = 'p, li, h2, h3, h4, h5, h6, blockquote, dd, dt';

export function pruneBoilerplate(root: Element): void {
  const before = textLength(root);
  if (before === 0) return;
  const pruned = root.cloneNode(true) as Element;
  prune(pruned, before);
  if (textLength(pruned) < before / 3) return;
  root.replaceChildren(...pruned.childNodes);
}

function prune(root: Element, total: number): void {
  // A block may go only while it is small next to the article (a short article keeps a floor).
  const small = (el: Element) => textLength(el) <= Math.max(total * 0.2, 300);
  const inside = (el: Element) => el !== root && root.contains(el);

  // Several <article> elements side by side: the longest is the story, the rest are teasers.
  const articles = [...root.querySelectorAll('article')].filter((a) => !a.parentElement?.closest('article'));
  if (articles.length > 1) {
    const main = articles.reduce((a, b) => (textLength(b) > textLength(a) ? b : a));
    for (const a of articles) if (a !== main && textLength(a) < textLength(main) * 0.3) a.remove();
  }

  for (const el of [
    ...root.querySelectorAll('nav, [role="navigation"], [role="menu"], [role="menubar"], figcaption'),
  ]) {
    if (inside(el) && small(el)) el.remove();
  }
  for (const el of [...root.querySelectorAll('[class], [id]')]) {
    if (!inside(el)) continue;
    const cls = el.getAttribute('class') ?? '';
    const name = `${cls} ${el.getAttribute('id') ?? ''}`;
    if (GALLERY_FRAGMENT.test(name) && el.querySelector('img, picture') && small(el)) keepOnlyImages(el);
    else if ((FURNITURE_FRAGMENT.test(name) || cls.split(/\s+/).some((t) => FURNITURE_TOKEN.test(t))) && small(el))
      el.remove();
  }
  for (const h of [...root.querySelectorAll('h2, h3, h4, h5, h6')]) {
    if (!inside(h) || !LINKS_HEADING.test(norm(h.textContent))) continue;
    const next = h.nextElementSibling;
    if (next && linkDensity(next) > 0.5 && small(next)) next.remove();
    h.remove();
  }
  for (const el of [...root.querySelectorAll(BLOCKS)]) {
    if (!inside(el)) continue;
    const text = norm(el.textContent);
    if (!text) continue;
    const words = text.split(' ').length;
    if (
      UI_LABEL.test(text) ||
      BARE_ADDRESS.test(text) ||
      (words <= 15 && DATELINE.test(text) && (DATE_MARK.test(text) || /\bago\b/i.test(text))) ||
      (words <= 8 && isDateline(el, text)) ||
      (words <= 12 && BYLINE.test(text) && !/[.!?]$/.test(text)) ||
      (words <= 40 && COPYRIGHT.test(text)) ||
      (words <= 60 && COOKIE_NOTICE.test(text)) ||
      (words <= 15 && CREDIT_LINE.test(text)) ||
      (words <= 60 && CREDIT_TAIL.test(text)) ||
      (isLinkBlock(el, words) && small(el))
    ) {
      el.remove();
    }
  }
  // The same prose paragraph twice is a gallery caption, a teaser or a print copy repeating the
  // text; short or list-like lines (menus, schedules, recipes) legitimately repeat.
  const seen = new Set<string>();
  for (const el of [...root.querySelectorAll(LEAF_BLOCKS)]) {
    if (!inside(el) || el.querySelector(LEAF_BLOCKS)) continue;
    const text = norm(el.textContent);
    if (text.length < 100 || !/[.!?"”’)]$/.test(text)) continue;
    if (seen.has(text)) el.remove();
    else seen.add(text);
  }
}

/** A short line with a date or a time (not a table, heading or quoted post, which keep theirs). */
function isDateline(el: Element, text: string): boolean {
  return (
    DATELINE_TAGS.has(el.tagName) && !el.closest('blockquote, table') && DATE_MARK.test(text) && !/[.!?]$/.test(text)
  );
}

/** A menu, a list of headlines, or a call to action: almost all of its text is link text. */
function isLinkBlock(el: Element, words: number): boolean {
  if (!el.querySelector('a')) return false;
  const density = linkDensity(el);
  if (el.tagName === 'UL' || el.tagName === 'OL' || el.tagName === 'DL') return density > 0.6;
  if (el.tagName === 'P' || el.tagName === 'LI' || el.tagName === 'DD') return density > 0.75 && words <= 25;
  return density > 0.7;
}

function keepOnlyImages(el: Element): void {
  const images = [...el.querySelectorAll('picture, img')].filter(
    (img) => img.tagName === 'PICTURE' || !img.closest('picture'),
  );
  el.replaceChildren(...images);
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

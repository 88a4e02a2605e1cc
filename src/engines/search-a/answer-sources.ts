import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import type { Source } from '../engine-result.js';
import { displayHost } from '../common/urls.js';
import { collapse, NOT_DISPLAYED } from './answer-render.js';
import { publisherUrl } from './google-links.js';

/** Where links are read from: prose (inline phrase links) or source cards (titles worth keeping). */
export interface SourceScope {
  el: Cheerio<Element>;
  kind: 'inline' | 'cards';
}

/**
 * Citation sources of an AI answer: publisher links of the scopes, in first-appearance order,
 * de-duplicated by normalised URL (docs/engines.md#normalised-answer). A later source card for an inline link only
 * improves its label (a card title beats the linked phrase); the position stays.
 */
export function collectSources($: CheerioAPI, scopes: SourceScope[], pageUrl: string): Source[] {
  const sources: Source[] = [];
  const byUrl = new Map<string, { source: Source; fromCard: boolean }>();
  // Scopes may nest (prose inside the container): each anchor counts once, in its first scope.
  const visited = new Set<Element>();
  const roots = new Set(scopes.flatMap((scope) => scope.el.toArray()));
  for (const scope of scopes) {
    scope.el.find('a[href]').each((_, el) => {
      if (visited.has(el)) return;
      visited.add(el);
      const a = $(el);
      if (isAnswerChrome($, a, roots)) return;
      const url = publisherUrl(a.attr('href'), pageUrl);
      if (!url) return;
      // A source panel can sit inside the prose (2026): its `role="listitem"` cards are still cards.
      const fromCard = scope.kind === 'cards' || a.closest('[role="listitem"]').length > 0;
      const known = byUrl.get(url);
      if (known) {
        if (fromCard && !known.fromCard) {
          known.source.label = citationLabel($, a, url, pageUrl, true);
          known.fromCard = true;
        }
        return;
      }
      const source = { position: sources.length + 1, url, label: citationLabel($, a, url, pageUrl, fromCard) };
      sources.push(source);
      byUrl.set(url, { source, fromCard });
    });
  }
  return sources;
}

/**
 * A link of the answer's own controls, not a citation: it sits in a dialog (share, feedback) or in a
 * block that is not displayed (the feedback thanks, the report form's legal notice), outside any
 * list item, inside a sentence ("See our Privacy Policy", "You can delete this link"). Source lists
 * are lists or bare cards (`li`, `role="listitem"`, the "Show all" dialog's links), so a folded or
 * dialog-borne source list still counts. Decided by place, never by host: an answer that cites
 * Google's own help articles keeps them. Only the blocks inside the answer count (`roots`: the
 * scopes read), so an answer the page folds away as a whole is still read.
 */
function isAnswerChrome($: CheerioAPI, a: Cheerio<Element>, roots: ReadonlySet<Element>): boolean {
  const chain = a.parents().toArray();
  let top = chain.length;
  for (let i = chain.length - 1; i >= 0; i--) {
    if (roots.has(chain[i] as Element)) {
      top = i;
      break;
    }
  }
  const blocks = chain.slice(0, top);
  if (blocks.some((e) => e.tagName === 'li' || e.attribs.role === 'listitem')) return false;
  const folded = blocks.some(
    (e) => e.attribs.role === 'dialog' || e.attribs.hidden !== undefined || NOT_DISPLAYED.test(e.attribs.style ?? ''),
  );
  return folded && inSentence($, a);
}

/** Inline elements that carry the words of a sentence around a link. */
const PHRASE_TAGS: ReadonlySet<string> = new Set(['span', 'b', 'strong', 'em', 'i', 'u', 'mark', 'code']);

/**
 * Whether the link is a phrase of a sentence: words stand right beside it, as text or inline
 * elements. A card in a source list stands beside other cards and block headings ("Sources"), not words.
 */
function inSentence($: CheerioAPI, a: Cheerio<Element>): boolean {
  return a
    .parent()
    .contents()
    .toArray()
    .some(
      (n) =>
        n !== a.get(0) &&
        (n.type === 'text' || (n.type === 'tag' && PHRASE_TAGS.has(n.tagName))) &&
        /\p{L}/u.test($(n).text()),
    );
}

const HOST_LIKE = /^[\w.-]+\.[a-z]{2,}(\s*›.*)?$/i;
/**
 * 2026 citation chips label their overlay link "<site> - Related results" (or only "Related
 * results" when the chip shows no site): the suffix is the chip's control name, not the source's.
 */
const CHIP_ARIA_SUFFIX = /(^|(?<!\s)\s+[-–]\s+)Related results$/i;
/**
 * Where a source card shows its title when the card's link is an empty overlay: a heading, else the
 * title line of the 2025-2026 cards (classes, the last resort: `.gpZmoc` in the "Show all" dialog,
 * `.vFyWT` in the source panel beside or inside the answer body).
 */
const CARD_TITLE = '[role="heading"], h3, h4, .gpZmoc, .vFyWT';

/**
 * Label of a citation: the card title, or the linked phrase, or the host. A card whose link is an
 * empty overlay has its title only in the anchor's `aria-label` or elsewhere in the card.
 */
function citationLabel($: CheerioAPI, a: Cheerio<Element>, url: string, pageUrl: string, card: boolean): string {
  const heading = collapse(a.find('[role="heading"], h3, h4').first().text());
  if (heading) return heading;
  // A source card is "<title><span>site</span>": the anchor's own text is the title.
  const own = collapse(
    a
      .contents()
      .filter((_, n) => n.type === 'text')
      .text(),
  );
  if (own) return own;
  for (const el of a.find('*').toArray()) {
    const t = collapse($(el).text());
    if (t && !HOST_LIKE.test(t)) return t;
  }
  const aria = collapse(a.attr('aria-label') ?? '').replace(CHIP_ARIA_SUFFIX, '');
  if (aria && !HOST_LIKE.test(aria)) return aria;
  if (card) {
    const title = cardTitle($, a, url, pageUrl);
    if (title) return title;
  }
  return displayHost(url);
}

/** The title of the card an empty overlay link belongs to: the nearest ancestor that links nowhere else. */
function cardTitle($: CheerioAPI, a: Cheerio<Element>, url: string, pageUrl: string): string {
  for (const anc of a.parents().slice(0, 5).toArray()) {
    const card = $(anc);
    const elsewhere = card.find('a[href]').filter((_, x) => {
      const other = publisherUrl($(x).attr('href'), pageUrl);
      return other !== null && other !== url;
    });
    if (elsewhere.length > 0) return '';
    const title = collapse(card.find(CARD_TITLE).first().text());
    if (title) return title;
  }
  return '';
}

/** Page chrome whose paragraphs never make an article. */
const CHROME =
  'nav, header, footer, aside, form, script, style, noscript, template, ' +
  '[role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"]';
/** Class or id words of blocks whose prose is not the article (comments, footers, sidebars). */
export const NOT_ARTICLE = /comment|footer|sidebar|menu|related|promo|newsletter|cookie|consent|popup|modal/i;
const BLOCK_CHILD = 'p, div, section, article, ul, ol, table, blockquote, pre, h1, h2, h3, h4, h5, h6, figure';

/**
 * The element whose own paragraphs hold the most prose (text outside links): the classic
 * text-density signal, used when Readability finds nothing or only a footer. Each paragraph
 * (a `p`, or a `div` holding text but no blocks) counts towards its parent.
 */
export function densestParagraphBlock(doc: Document): Element | null {
  const body = doc.body;
  if (!body) return null;
  const scores = new Map<Element, number>();
  for (const el of body.querySelectorAll('p, div, td, pre, blockquote')) {
    if (el.tagName !== 'P' && el.tagName !== 'PRE' && el.querySelector(BLOCK_CHILD)) continue;
    const parent = el.parentElement;
    if (!parent || el.closest(CHROME) || inNonArticle(el)) continue;
    const prose = textLength(el) - linkTextLength(el);
    if (prose < 25) continue;
    scores.set(parent, (scores.get(parent) ?? 0) + prose);
  }
  let best: Element | null = null;
  let bestScore = 0;
  for (const [el, score] of scores) {
    if (score > bestScore) {
      best = el;
      bestScore = score;
    }
  }
  return best;
}

function inNonArticle(el: Element): boolean {
  for (let a: Element | null = el; a && a.tagName !== 'BODY'; a = a.parentElement) {
    if (NOT_ARTICLE.test(`${a.getAttribute('class') ?? ''} ${a.getAttribute('id') ?? ''}`)) return true;
  }
  return false;
}

function linkTextLength(el: Element): number {
  let n = 0;
  for (const a of el.querySelectorAll('a')) n += textLength(a);
  return n;
}

function textLength(el: Element): number {
  return (el.textContent ?? '').replace(/\s+/g, ' ').trim().length;
}

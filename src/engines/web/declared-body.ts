/**
 * The article body a page declares in its schema.org structured data (`<script type="application/ld+json">` with an
 * `articleBody`, as news and blog platforms publish it for search engines). It is the publisher's own statement of
 * what the article is, independent of the page's layout, so it is read when the page's markup shows only part of it:
 * a paywalled or lazily loaded page whose DOM holds the first paragraphs while the structured data holds the article
 * (docs/engines.md#declared-body).
 */

/** The declared body replaces the markup's article only when it holds at least this many times its words… */
const DECLARED_BODY_RATIO = 2;
/** …and at least this share of the markup article's words are words of the declared body (it is the same article). */
const DECLARED_BODY_CONTAINS = 0.8;
/** Structured data larger than this is not parsed (no article's JSON-LD comes near it). */
const MAX_LD_JSON_CHARS = 2_000_000;
/** How deep into a JSON-LD document the `articleBody` is looked for (`@graph` → item → `mainEntity` → …). */
const MAX_DEPTH = 6;

const WORD = /[\p{L}\p{N}]+/gu;

/** The longest `articleBody` string of the page's JSON-LD blocks, or null. Read before Readability edits the page. */
export function declaredArticleBody(doc: Document): string | null {
  let best: string | null = null;
  for (const script of doc.querySelectorAll('script[type="application/ld+json" i]')) {
    const raw = script.textContent ?? '';
    if (raw.length > MAX_LD_JSON_CHARS) continue;
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      continue;
    }
    for (const body of articleBodies(data, 0)) if (!best || body.length > best.length) best = body;
  }
  return best?.trim() ? best.trim() : null;
}

/** The `articleBody` strings under `node`, into `out` (no spread of a hostile page's thousands of them). */
function articleBodies(node: unknown, depth: number, out: string[] = []): string[] {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const n of node) articleBodies(n, depth + 1, out);
    return out;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'articleBody' && typeof value === 'string') out.push(value);
    else if (typeof value === 'object') articleBodies(value, depth + 1, out);
  }
  return out;
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * Whether the declared body is the same article as the markup's and much longer: it holds `DECLARED_BODY_RATIO`
 * times the words, and `DECLARED_BODY_CONTAINS` of the markup article's words are among its words (counted as a
 * multiset). A declared body that is a teaser, or another text, leaves the markup's article as it is.
 */
export function declaredBodyIsFuller(markupText: string, declared: string): boolean {
  const mine = wordsOf(markupText);
  const theirs = wordsOf(declared);
  if (theirs.length < DECLARED_BODY_RATIO * Math.max(mine.length, 1)) return false;
  const left = new Map<string, number>();
  for (const w of theirs) left.set(w, (left.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of mine) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      shared++;
      left.set(w, n - 1);
    }
  }
  return mine.length === 0 || shared >= DECLARED_BODY_CONTAINS * mine.length;
}

/**
 * The declared body as an article element: parsed as HTML when it holds markup (some platforms publish the body's
 * HTML), otherwise one paragraph per line. The sanitiser runs on it afterwards like on any article.
 */
export function declaredBodyElement(doc: Document, declared: string): Element {
  const root = doc.createElement('div');
  if (/<\/?(?:p|br|div|h[1-6]|ul|ol|li|blockquote)\b/i.test(declared)) {
    root.innerHTML = declared;
    return root;
  }
  for (const line of declared.split(/\r?\n/)) {
    const text = line.trim();
    if (!text) continue;
    const p = doc.createElement('p');
    // A line without `<` holds no markup; innerHTML decodes the character references some platforms leave in it.
    if (text.includes('<')) p.textContent = text;
    else p.innerHTML = text;
    root.append(p);
  }
  return root;
}

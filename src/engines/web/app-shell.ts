/** Below this much visible body text a page with app-shell markers is treated as JS-only. */
const SHELL_TEXT_LIMIT = 200;
const MOUNT_POINTS = [
  '#root',
  '#__next',
  '#app',
  '#__nuxt',
  '#___gatsby',
  '#svelte',
  '[data-reactroot]',
  'app-root',
  '[ng-app]',
  '[ng-version]',
];
/** A `<noscript>` text that asks the reader to turn JavaScript on. */
const ASKS_FOR_JAVASCRIPT = new RegExp(
  [
    'enable javascript',
    'javascript (is )?(required|disabled)',
    'requires javascript',
    'need to enable javascript',
    'turn on javascript',
  ].join('|'),
  'i',
);

/**
 * Recognises a JavaScript-only application shell (docs/engines.md#block-signatures): almost no visible text, and
 * an empty framework mount point or a `<noscript>` asking for JavaScript. Returns the evidence, or
 * null for a page that has content (server-rendered apps fill their mount point and pass).
 */
export function appShellEvidence(doc: Document): string | null {
  const body = doc.body;
  if (!body) return null;
  if (hasVisibleText(body, SHELL_TEXT_LIMIT)) return null;
  for (const sel of MOUNT_POINTS) {
    const el = body.querySelector(sel);
    if (el && !hasVisibleText(el, SHELL_TEXT_LIMIT)) return `empty mount point ${sel}`;
  }
  for (const ns of body.querySelectorAll('noscript')) {
    if (ASKS_FOR_JAVASCRIPT.test(ns.textContent ?? '')) return 'noscript asks for JavaScript';
  }
  return null;
}

/** Elements whose text a reader never sees. */
const INVISIBLE = new Set(['script', 'style', 'noscript', 'template']);

/**
 * Whether the element's text outside scripts, styles, `<noscript>` and templates, with whitespace runs collapsed and
 * trimmed, reaches `limit` characters. Read in place, without copying the element (a copy of a whole page's body cost
 * as much as a tenth of its read), and only as far as needed: text that follows never shortens the text before it.
 */
function hasVisibleText(el: Element, limit: number): boolean {
  // The text so far with whitespace runs collapsed: never much longer than `limit` before the answer is known.
  let seen = '';
  const stack: Node[] = [];
  const pushChildren = (n: Node) => {
    for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
  };
  pushChildren(el);
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.nodeType === 3 || node.nodeType === 4) {
      seen = (seen + (node as CharacterData).data).replace(/\s+/g, ' ');
      if (seen.trim().length >= limit) return true;
    } else if (node.nodeType === 1 && !INVISIBLE.has((node as Element).localName)) pushChildren(node);
  }
  return false;
}

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
  const visible = visibleTextLength(body);
  if (visible >= SHELL_TEXT_LIMIT) return null;
  for (const sel of MOUNT_POINTS) {
    const el = body.querySelector(sel);
    if (el && visibleTextLength(el) < SHELL_TEXT_LIMIT) return `empty mount point ${sel}`;
  }
  for (const ns of body.querySelectorAll('noscript')) {
    if (ASKS_FOR_JAVASCRIPT.test(ns.textContent ?? '')) return 'noscript asks for JavaScript';
  }
  return null;
}

function visibleTextLength(el: Element): number {
  const copy = el.cloneNode(true) as Element;
  for (const n of [...copy.querySelectorAll('script, style, noscript, template')]) n.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim().length;
}

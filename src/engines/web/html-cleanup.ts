/**
 * Readability output is not sanitised (docs/engines.md#main-content), and the fallback path takes page markup
 * as it is. Before conversion we drop active and invisible content and make tables convertible.
 */
// Forms themselves stay: some sites (ASP.NET) wrap the whole page in one; only their controls go.
const DROP =
  'script, style, iframe, frame, frameset, object, embed, applet, link, meta, ' +
  'template, noscript, svg, canvas, button, input, select, textarea, dialog, ' +
  // A video's or audio's inner text is what a browser without the element shows ("To view this video please enable
  // JavaScript…"): every browser today plays the element and never shows it.
  'video, audio';
const URL_ATTRS = [
  'href',
  'src',
  'srcset',
  'data-src',
  'data-lazy-src',
  'data-original',
  'data-srcset',
  'poster',
  'action',
  'formaction',
];

/**
 * Why `sanitize` removed an element that held text: an active or form element (`script`, `iframe`, `button`,
 * `select`, …), the `hidden` attribute, or a small `aria-hidden` node.
 */
export type SanitizeRule = 'active-element' | 'hidden' | 'aria-hidden';

/** Removes active and invisible content; `removed` is told of each element that goes, before it goes. */
export function sanitize(root: Element, removed?: (rule: SanitizeRule, el: Element) => void): void {
  const drop = (rule: SanitizeRule, el: Element) => {
    removed?.(rule, el);
    el.remove();
  };
  for (const el of [...root.querySelectorAll(DROP)]) if (root.contains(el)) drop('active-element', el);
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || name === 'style') el.removeAttribute(attr.name);
      else if (URL_ATTRS.includes(name) && /^\s*(javascript|vbscript):/i.test(attr.value))
        el.removeAttribute(attr.name);
    }
  }
  for (const el of [...root.querySelectorAll('[hidden]')]) if (root.contains(el)) drop('hidden', el);
  // aria-hidden marks decorative icons, but also a whole page behind an open modal; drop only
  // small decorative nodes without images.
  for (const el of [...root.querySelectorAll('[aria-hidden="true"]')]) {
    if (
      root.contains(el) &&
      el.tagName !== 'IMG' &&
      !el.querySelector('img') &&
      (el.textContent ?? '').trim().length < 80
    )
      drop('aria-hidden', el);
  }
}

/**
 * turndown-plugin-gfm converts a table only when its first row is a header row of `th` cells with
 * no whitespace text between them, and keeps every other table as raw HTML. Rebuild each data
 * table in that shape (first row promoted to the header when the page has none), and unwrap
 * layout tables that nest other tables.
 */
export function normalizeTables(root: Element): void {
  const doc = root.ownerDocument;
  for (const table of [...root.querySelectorAll('table')].reverse()) {
    if (table.querySelector('table')) {
      unwrapLayoutTable(table);
      continue;
    }
    const rows = [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
    const first = rows[0];
    if (!first) {
      table.remove();
      continue;
    }
    const headRow = rows.find((tr) => tr.parentElement?.tagName === 'THEAD') ?? first;
    const rebuilt = doc.createElement('table');
    const thead = rebuilt.appendChild(doc.createElement('thead'));
    const tbody = rebuilt.appendChild(doc.createElement('tbody'));
    thead.appendChild(copyRow(headRow, 'th'));
    for (const tr of rows) if (tr !== headRow) tbody.appendChild(copyRow(tr, 'td'));
    const caption = table.querySelector('caption');
    if (caption?.textContent?.trim()) {
      const p = doc.createElement('p');
      p.textContent = caption.textContent.trim();
      table.before(p);
    }
    table.replaceWith(rebuilt);
  }
}

function copyRow(tr: Element, cellTag: 'th' | 'td'): Element {
  const doc = tr.ownerDocument;
  const out = doc.createElement('tr');
  for (const cell of tr.children) {
    if (cell.tagName !== 'TD' && cell.tagName !== 'TH') continue;
    const c = doc.createElement(cellTag);
    c.innerHTML = cell.innerHTML;
    out.appendChild(c);
  }
  return out;
}

function unwrapLayoutTable(table: Element): void {
  const doc = table.ownerDocument;
  const box = doc.createElement('div');
  for (const cell of table.querySelectorAll('td, th')) {
    if (cell.closest('table') !== table) continue;
    const div = doc.createElement('div');
    while (cell.firstChild) div.appendChild(cell.firstChild);
    box.appendChild(div);
  }
  table.replaceWith(box);
}

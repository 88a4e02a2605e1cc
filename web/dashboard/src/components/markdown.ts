import { Marked, type Tokens } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * Markdown of an engine's answer as HTML that can hold no markup of the upstream's: raw HTML is shown as text, images
 * as their alt text, links only when http(s) (opening elsewhere, without a referrer), and citation markers `[n]`
 * become buttons that point at source n. The page's CSP forbids inline script besides.
 */
const markdown = new Marked({
  gfm: true,
  renderer: {
    html: (t: Tokens.HTML | Tokens.Tag) => escapeHtml(t.text),
    image: (t: Tokens.Image) => escapeHtml(t.text),
    link(t: Tokens.Link) {
      const text = this.parser.parseInline(t.tokens);
      if (!/^https?:\/\//i.test(t.href)) return text;
      return `<a href="${escapeHtml(t.href)}" target="_blank" rel="noopener noreferrer">${text}</a>`;
    },
  },
  extensions: [
    {
      name: 'citation',
      level: 'inline',
      start: (src: string) => src.match(/\[\d/)?.index,
      tokenizer(src: string) {
        const m = /^\[(\d{1,3})\](?![(:])/.exec(src);
        return m ? { type: 'citation', raw: m[0], n: Number(m[1]) } : undefined;
      },
      renderer: (t) =>
        `<button type="button" class="cite" data-source="${Number(t.n)}" aria-label="Source ${Number(t.n)}">${Number(
          t.n,
        )}</button>`,
    },
  ],
});

/** An answer's Markdown as safe HTML (see above). */
export function renderMarkdown(md: string): string {
  return markdown.parse(md, { async: false }) as string;
}

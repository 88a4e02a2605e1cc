import { Marked, type Tokens } from 'marked';
import { hostOf, safeHref } from '../format.js';
import { html } from '../html.js';

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
        const m = /^\[(\d{1,3})\](?![(:[])/.exec(src);
        return m ? { type: 'citation', raw: m[0], n: Number(m[1]) } : undefined;
      },
      renderer: (t) =>
        `<button type="button" class="cite" data-source="${Number(t.n)}" aria-label="Source ${Number(t.n)}">${Number(
          t.n,
        )}</button>`,
    },
  ],
});

/** A link to a cited page that opens elsewhere without a referrer; a URL that is not http(s) is only shown. */
export function SourceLink({ url, text }: { url: string | undefined; text: string | undefined }) {
  const target = safeHref(url);
  return target
    ? html`<a href=${target} target="_blank" rel="noopener noreferrer">${text || target}</a>`
    : html`<span>${text || url}</span>`;
}

export interface Source {
  position?: number;
  url?: string;
  label?: string;
}

/** Moves the focus to source n of the list beside the answer (a citation marker's click). */
function showSource(e: MouseEvent) {
  const n = (e.target as HTMLElement).closest<HTMLElement>('button.cite')?.dataset.source;
  if (!n) return;
  const item = document.getElementById(`source-${n}`);
  if (!item) return;
  for (const el of document.querySelectorAll('.sources li.lit')) el.classList.remove('lit');
  item.classList.add('lit');
  item.focus();
}

/** An answer (its Markdown, or its text) side by side with the sources it cites. */
export function AnswerWithSources({
  markdown: md,
  text,
  sources,
}: {
  markdown?: string;
  text?: string;
  sources: Source[];
}) {
  const body = md ? (markdown.parse(md, { async: false }) as string) : null;
  return html`<div class="answer-grid">
    <section class="card answer" aria-labelledby="answer-title">
      <h2 id="answer-title">Answer</h2>
      ${
        body === null
          ? html`<p class="answer-text">${text ?? ''}</p>`
          : html`<div class="markdown" onClick=${showSource} dangerouslySetInnerHTML=${{ __html: body }}></div>`
      }
    </section>
    <section class="card sources" aria-labelledby="sources-title">
      <h2 id="sources-title">Cited sources <span class="muted">(${sources.length})</span></h2>
      ${
        sources.length === 0
          ? html`<p class="muted">The answer cites no source.</p>`
          : html`<ol>
              ${sources.map(
                (s, i) => html`<li id=${`source-${s.position ?? i + 1}`} tabindex="-1">
                  <span class="source-n">${s.position ?? i + 1}</span>
                  <span>
                    <${SourceLink} url=${s.url} text=${s.label || s.url} />
                    <span class="muted host">${hostOf(s.url ?? '')}</span>
                  </span>
                </li>`,
              )}
            </ol>`
      }
    </section>
  </div>`;
}

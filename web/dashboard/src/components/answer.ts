import { useEffect, useState } from 'preact/hooks';
import { linkHost, safeHref } from '../format.js';
import { html } from '../html.js';

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
/**
 * The Markdown renderer, loaded when an answer is first shown: a chunk of its own (a third of the bundle), so the
 * pages without an answer load without it.
 */
function useMarkdown(): ((md: string) => string) | null {
  const [render, setRender] = useState<((md: string) => string) | null>(null);
  useEffect(() => {
    let live = true;
    void import('./markdown.js').then((m) => {
      if (live) setRender(() => m.renderMarkdown);
    });
    return () => {
      live = false;
    };
  }, []);
  return render;
}

export function AnswerWithSources({
  markdown: md,
  text,
  sources,
}: {
  markdown?: string;
  text?: string;
  sources: Source[];
}) {
  const render = useMarkdown();
  const body = md && render ? render(md) : null;
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
                    <span class="muted host">${linkHost(s.url ?? '')}</span>
                  </span>
                </li>`,
              )}
            </ol>`
      }
    </section>
  </div>`;
}

interface Retrieved {
  url?: string;
  title?: string | null;
  query?: string | null;
}

interface Product {
  title?: string;
  url?: string | null;
  price?: string | null;
  merchant?: string | null;
  rating?: number | null;
}

interface Region {
  requested?: string | null;
  exit?: string;
  engine?: { country?: string | null; language?: string | null; signal?: string } | null;
}

/** Where the answer was asked from and where the engine says it served it for (docs/contract.md#region). */
function regionText(r: Region): string {
  const asked = r.requested ? `asked for ${r.requested}` : 'no country asked';
  const exit = r.exit ? `, sent from ${r.exit}` : '';
  const engine = r.engine
    ? `, the engine says ${[r.engine.country, r.engine.language].filter(Boolean).join(' / ')} ` +
      `(${r.engine.signal ?? ''})`
    : ', the engine does not say where it served it for';
  return `${asked}${exit}${engine}`;
}

/**
 * What is behind an answer (docs/contract.md#answer-signals): whether the engine searched, the searches it ran and
 * the pages it read but did not cite. A signal the engine cannot see is said to be unknown, never shown as "none".
 */
export function BehindTheAnswer({ response }: { response: Record<string, unknown> }) {
  const triggered = response.searchTriggered;
  const queries = Array.isArray(response.searchQueries) ? (response.searchQueries as string[]) : null;
  const retrieved = Array.isArray(response.retrievedSources) ? (response.retrievedSources as Retrieved[]) : null;
  const products = Array.isArray(response.products) ? (response.products as Product[]) : null;
  const region = response.region && typeof response.region === 'object' ? (response.region as Region) : null;
  const unknown = html`<p class="muted">Not shown by this engine.</p>`;
  return html`<section class="card behind" aria-labelledby="behind-title">
    <h2 id="behind-title">Behind the answer</h2>
    <dl class="facts">
      <div>
        <dt>Searched the web</dt>
        <dd class="searched">${triggered === true ? 'Yes' : triggered === false ? 'No' : 'Unknown'}</dd>
      </div>
      ${
        region
          ? html`<div>
              <dt>Region</dt>
              <dd class="region">${regionText(region)}</dd>
            </div>`
          : null
      }
    </dl>
    <h3>Searches it ran ${queries ? html`<span class="muted">(${queries.length})</span>` : ''}</h3>
    ${
      queries === null
        ? unknown
        : queries.length === 0
          ? html`<p class="muted">None.</p>`
          : html`<ol class="searches">${queries.map((q) => html`<li>${q}</li>`)}</ol>`
    }
    <h3>Read but not cited ${retrieved ? html`<span class="muted">(${retrieved.length})</span>` : ''}</h3>
    ${
      retrieved === null
        ? unknown
        : retrieved.length === 0
          ? html`<p class="muted">None.</p>`
          : html`<ol class="retrieved">
              ${retrieved.map(
                (r) => html`<li>
                  <${SourceLink} url=${r.url} text=${r.title || r.url} />
                  <span class="muted host">${linkHost(r.url ?? '')}</span>
                  ${r.query ? html`<span class="muted"> · found by “${r.query}”</span>` : ''}
                </li>`,
              )}
            </ol>`
    }
    <h3>Products shown ${products ? html`<span class="muted">(${products.length})</span>` : ''}</h3>
    ${
      products === null
        ? unknown
        : products.length === 0
          ? html`<p class="muted">None.</p>`
          : html`<ol class="products">
              ${products.map(
                (p) => html`<li>
                  <${SourceLink} url=${p.url ?? undefined} text=${p.title} />
                  ${p.price ? html`<span> · ${p.price}</span>` : ''}
                  ${p.merchant ? html`<span class="muted"> · ${p.merchant}</span>` : ''}
                  ${typeof p.rating === 'number' ? html`<span class="muted"> · ★ ${p.rating}</span>` : ''}
                </li>`,
              )}
            </ol>`
    }
  </section>`;
}

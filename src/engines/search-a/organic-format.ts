import type { Source } from '../adapter.js';
import type { OrganicResult } from './organic-parser.js';

/** `n. title — url — snippet`, one result a line (docs/engines.md#google-results-pages-1-10, normalisation). */
export function organicText(results: OrganicResult[]): string {
  return results.map((r) => [`${r.position}. ${r.title}`, r.url, r.snippet].filter(Boolean).join(' — ')).join('\n');
}

/** The same list in Markdown, titles linked; numbering keeps the global positions. */
export function organicMarkdown(results: OrganicResult[]): string {
  return results
    .map((r) => {
      const title = r.title.replace(/[[\]]/g, '\\$&');
      const url = r.url.replace(/[()]/g, (c) => encodeURIComponent(c));
      const link = `${r.position}. [${title}](${url})`;
      return r.snippet ? `${link} — ${r.snippet}` : link;
    })
    .join('\n');
}

/** Organic results as sources, in rank order, labelled by title. */
export function organicSources(results: OrganicResult[]): Source[] {
  return results.map((r) => ({ position: r.position, url: r.url, label: r.title || r.site }));
}

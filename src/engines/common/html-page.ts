import type { RenderTimings } from '../../transport/browser/browser-transport.js';

/** A search engine's page as fetched over HTTP or rendered in the browser: what its parsers read. */
export interface HtmlPage {
  html: string;
  status: number;
  /** URL after redirects. */
  finalUrl: string;
  /** Browser transport only: whether the page settled before the budget ran out, and how long it took. */
  rendered?: { complete: boolean; timings: RenderTimings };
}

import type { AttemptContext } from '../adapter.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { promptOf } from '../common/upstream-status.js';
import { usesBrowser } from '../common/engine-render.js';
import { renderSearchPage, type GoogleSurface } from './browser-render.js';
import type { HtmlPage } from '../common/html-page.js';
import { regionLanguage, type RegionLanguage } from './region-language.js';
import { USER_AGENTS } from '../../transport/identity.js';

export interface SearchRequestOptions {
  /** `50` = AI Mode. */
  udm?: number;
  /** 1-based results page; sent as `start=(page-1)*10`. */
  page?: number;
}

export interface SearchRequest {
  url: string;
  headers: Record<string, string>;
  region: RegionLanguage;
  query: string;
}

/**
 * Builds `GET {baseUrl}/search?q=…&hl=…&gl=…` (docs/engines.md#google-request, #google-results-pages-1-10,
 * #google-ai-mode).
 */
export function buildSearchRequest(
  ctx: Pick<AttemptContext, 'payload' | 'country' | 'config'>,
  opts: SearchRequestOptions = {},
): SearchRequest {
  const query = promptOf(ctx.payload);
  if (!query)
    throw new UpstreamFailure('BAD_PAYLOAD', 'empty query', {
      clientMessage: 'payload.prompt or payload.query must not be empty.',
    });
  const region = regionLanguage(ctx.country);
  const params = new URLSearchParams({ q: query, hl: region.hl, gl: region.gl });
  if (opts.udm !== undefined) params.set('udm', String(opts.udm));
  if (opts.page !== undefined && opts.page > 1) params.set('start', String((opts.page - 1) * 10));
  params.set('pws', '0');
  const base = ctx.config.upstream.baseUrl.replace(/(?<!\/)\/+$/, '');
  return {
    url: `${base}/search?${params.toString()}`,
    headers: {
      // A desktop Chrome on Windows: the most common real client, so the least conspicuous.
      'user-agent': USER_AGENTS.desktopChrome,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
      'accept-language': region.acceptLanguage,
      // Without a consent cookie an EU exit lands on consent.google.<tld> (docs/engines.md#google-request).
      cookie: 'CONSENT=YES+',
      ...lowerKeys(ctx.config.upstream.headers),
    },
    region,
    query,
  };
}

/**
 * Fetches one page through the attempt's exit address (redirects followed, so a sorry page shows in
 * `finalUrl`): over HTTP, or rendered in the browser when the engine's transport is `browser`.
 */
export async function fetchSearchPage(
  ctx: AttemptContext,
  req: SearchRequest,
  surface: GoogleSurface = 'serp',
): Promise<HtmlPage> {
  if (usesBrowser(ctx.config))
    return renderSearchPage(ctx, { url: req.url, acceptLanguage: req.region.acceptLanguage }, surface);
  const res = await ctx.http.request({ method: 'GET', url: req.url, headers: req.headers, signal: ctx.signal });
  return { html: res.text(), status: res.status, finalUrl: res.url };
}

/**
 * Browser transport only: `{ transport, complete, timings }` for `raw`; nothing over HTTP, so `raw` stays as it was.
 */
export function renderDiagnostics(page: HtmlPage): Record<string, unknown> {
  return page.rendered ? { transport: 'browser', render: page.rendered } : {};
}

/** Request facts for `raw` (no headers: a deployment may put a cookie there). */
export function requestDiagnostics(req: SearchRequest): { url: string; hl: string; gl: string } {
  return { url: req.url, hl: req.region.hl, gl: req.region.gl };
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

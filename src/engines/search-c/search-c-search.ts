import { UpstreamFailure } from '../../domain/engine-errors.js';
import { ENGINE_CATALOG } from '../../domain/engine-catalog.js';
import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import type { HttpResponse } from '../../transport/http-transport.js';
import { bingRegion, regionHeaders, regionParams } from './bing-region.js';
import type { BingResult } from './bing-serp-parser.js';
import { USER_AGENTS } from '../../transport/identity.js';

const RESULTS_PER_PAGE = 10;
const MAX_PAGE = ENGINE_CATALOG.SEARCH_C_SEARCH.pages.last;

/** A desktop browser's headers; Bing serves a degraded page to clients that look like scripts. */
const BROWSER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'user-agent': USER_AGENTS.desktopEdge,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
});

/**
 * SEARCH_C_SEARCH: Bing web results over plain HTTP (docs/engines.md#bing-request, #bing-results,
 * #bing-blocks), pages 1 to 10.
 */
export const searchCSearch: EngineAdapter = {
  taskType: 'SEARCH_C_SEARCH',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const { upstream } = ctx.config;
    const query = promptOf(ctx.payload);
    const page = ctx.payload.page ?? 1;
    if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) {
      throw new UpstreamFailure('BAD_PAYLOAD', `bing: page ${page} out of range`, {
        clientMessage: `payload.page must be an integer from 1 to ${MAX_PAGE}.`,
      });
    }
    const first = (page - 1) * RESULTS_PER_PAGE + 1;
    const region = bingRegion(ctx.country);
    const params = new URLSearchParams({ q: query, pq: query, ...regionParams(region) });
    // `first` is never sent on page 1; FORM mimics the pager link Bing's own UI would follow.
    if (page > 1) {
      params.set('first', String(first));
      params.set('FORM', page === 2 ? 'PERE' : `PERE${page - 2}`);
    }
    const res = await ctx.http.request({
      method: 'GET',
      url: `${upstream.baseUrl}/search?${params.toString()}`,
      headers: { ...BROWSER_HEADERS, ...regionHeaders(region), ...upstream.headers },
      signal: ctx.signal,
    });
    assertSerpStatus(res);
    const html = res.text();
    const serp = await ctx.parse('bing.serp', { html, first });
    return {
      ...renderResults(serp.results),
      sources: serp.results.map((r) => ({ position: r.position, url: r.url, label: r.title })),
      raw: {
        html,
        status: res.status,
        finalUrl: res.url,
        titleTier: serp.titleTier,
        resultCount: serp.count,
        pageCheck: serp.pageCheck,
        first,
        market: region.mkt,
      },
      extra: { results: serp.results, page },
    };
  },
};

/** Status handling of docs/engines.md#bing-blocks: 202 with an odd body is a block; 429/503 are rate limits. */
function assertSerpStatus(res: HttpResponse): void {
  if (res.status === 200) return;
  if (res.status === 202) throw new UpstreamFailure('UPSTREAM_BLOCKED', 'bing answered 202 instead of a results page');
  if (res.status === 429 || res.status === 503) {
    const retryAfter = Number(res.headers['retry-after']);
    const opts = Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {};
    throw new UpstreamFailure('RATE_LIMITED', `bing answered ${res.status}`, opts);
  }
  if (res.status === 403) throw new UpstreamFailure('UPSTREAM_BLOCKED', 'bing answered 403');
  throw new UpstreamFailure('UPSTREAM_ERROR', `bing answered HTTP ${res.status}`);
}

/** Numbered list: Markdown links in `markdown`, the same lines without markup in `text`. */
function renderResults(results: BingResult[]): { text: string; markdown: string } {
  const md: string[] = [];
  const txt: string[] = [];
  for (const r of results) {
    const title = r.title.replace(/([[\]\\])/g, '\\$1');
    const snippet = r.snippet ? `\n   ${r.snippet}` : '';
    md.push(`${r.position}. [${title}](${r.url.replace(/\)/g, '%29')})${snippet}`);
    txt.push(`${r.position}. ${r.title}\n   ${r.url}${snippet}`);
  }
  return { markdown: md.join('\n\n'), text: txt.join('\n\n') };
}

import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import { fetchNaverPage, naverSearchUrl } from './naver-http.js';
import { readNaverPage } from './page-reader.js';
import type { WebResult } from './web-results-parser.js';

/** Naver's web-documents tab shows 15 results per page (docs/engines.md#naver-surfaces). */
const RESULTS_PER_PAGE = 15;

/**
 * SEARCH_B_SERP: one page (1..10) of Naver's web-documents tab, or with `action = "page"` one
 * page of a Naver site (a blog post) read by `payload.url`.
 */
export const searchBSerp: EngineAdapter = {
  taskType: 'SEARCH_B_SERP',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    if (ctx.payload.action === 'page') return readNaverPage(ctx, ctx.payload.url ?? '');
    const page = ctx.payload.page ?? 1;
    const start = (page - 1) * RESULTS_PER_PAGE + 1;
    const url = naverSearchUrl(ctx.config.upstream.baseUrl, {
      ssc: 'tab.web.all',
      query: promptOf(ctx.payload),
      start: String(start),
    });
    const fetched = await fetchNaverPage(ctx, url, { label: 'naver web tab' });
    const parsed = await ctx.parse('naver.webResults', fetched.html);
    return serpResult(parsed.results, page, {
      html: fetched.html,
      tier: parsed.tier,
      walls: parsed.walls,
      status: fetched.status,
      finalUrl: fetched.finalUrl,
      start,
    });
  },
};

/** Numbered list with global positions: page 2 starts at 16 (docs/engines.md#normalised-answer). */
export function serpResult(results: WebResult[], page: number, raw: Record<string, unknown>): EngineResult {
  const offset = (page - 1) * RESULTS_PER_PAGE;
  const ranked = results.map((r, i) => ({ position: offset + i + 1, ...r }));
  const markdown = ranked
    .map((r) => `${r.position}. [${escapeLinkText(r.title)}](${r.url})${r.snippet ? `\n   ${r.snippet}` : ''}`)
    .join('\n');
  const text = ranked
    .map((r) => `${r.position}. ${r.title} — ${r.url}${r.snippet ? `\n   ${r.snippet}` : ''}`)
    .join('\n');
  return {
    text,
    markdown,
    sources: ranked.map((r) => ({ position: r.position, url: r.url, label: r.title })),
    raw,
    extra: {
      page,
      results: ranked.map((r) => ({ position: r.position, url: r.url, title: r.title, snippet: r.snippet })),
    },
  };
}

function escapeLinkText(t: string): string {
  return t.replace(/([[\]])/g, '\\$1');
}

import { ENGINE_CATALOG } from '../../domain/engine-catalog.js';
import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { settledOrTimeout } from '../common/engine-render.js';
import { organicMarkdown, organicSources, organicText } from './organic-format.js';
import { buildSearchRequest, fetchSearchPage, renderDiagnostics, requestDiagnostics } from './search-request.js';

/**
 * SEARCH_A_SERP: one Google results page (`payload.page` 1..10, `start=(page-1)*10`) as organic
 * results with global positions (docs/engines.md#google-results-pages-1-10). The AI Overview is not read.
 */
export const searchASerp: EngineAdapter = {
  taskType: 'SEARCH_A_SERP',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const { first, last } = ENGINE_CATALOG.SEARCH_A_SERP.pages;
    const pageNo = Math.min(last, Math.max(first, Math.trunc(ctx.payload.page ?? 1)));
    const req = buildSearchRequest(ctx, { page: pageNo });
    const page = await fetchSearchPage(ctx, req);
    const parsed = await settledOrTimeout(page.rendered?.complete ?? true, 'google results page', () =>
      ctx.parse('google.results', { page, opts: { page: pageNo, readAio: false } }),
    );
    return {
      text: organicText(parsed.organic),
      markdown: organicMarkdown(parsed.organic),
      sources: organicSources(parsed.organic),
      ...(parsed.locale ? { locale: parsed.locale } : {}),
      raw: {
        request: requestDiagnostics(req),
        page: pageNo,
        status: page.status,
        finalUrl: page.finalUrl,
        ...parsed.diagnostics,
        ...renderDiagnostics(page),
        html: page.html,
      },
      // The page's cards (docs/engines.md#google-page-cards): null where the layout's cards are not read.
      extra: {
        page: pageNo,
        organic: parsed.organic,
        products: parsed.cards?.products ?? null,
        ads: parsed.cards?.ads ?? null,
        places: parsed.cards?.places ?? null,
      },
    };
  },
};

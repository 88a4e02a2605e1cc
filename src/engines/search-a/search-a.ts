import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { settledOrTimeout } from '../common/engine-render.js';
import { organicMarkdown, organicSources, organicText } from './organic-format.js';
import { buildSearchRequest, fetchSearchPage, renderDiagnostics, requestDiagnostics } from './search-request.js';

/**
 * SEARCH_A: one Google results page with its AI Overview (docs/engines.md#google-search). The answer is the AI
 * Overview when the page has one, else the organic list; `aioverview` is null when absent.
 */
export const searchA: EngineAdapter = {
  taskType: 'SEARCH_A',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const req = buildSearchRequest(ctx);
    const page = await fetchSearchPage(ctx, req, 'aioverview');
    const parsed = await settledOrTimeout(page.rendered?.complete ?? true, 'google results page', () =>
      ctx.parse('google.results', { page, opts: { page: 1, readAio: true } }),
    );
    const aio = parsed.aioverview;
    return {
      text: aio ? aio.text : organicText(parsed.organic),
      markdown: aio ? aio.markdown : organicMarkdown(parsed.organic),
      sources: aio ? aio.sources : organicSources(parsed.organic),
      // A results page is a search, and its AI Overview is written from it (docs/contract.md#answer-signals).
      // The page's shopping cards, sponsored units and local pack, where its layout is read
      // (docs/engines.md#google-page-cards).
      signals: { searchTriggered: true, ...(parsed.cards ?? {}) },
      ...(parsed.locale ? { locale: parsed.locale } : {}),
      raw: {
        request: requestDiagnostics(req),
        status: page.status,
        finalUrl: page.finalUrl,
        ...parsed.diagnostics,
        ...renderDiagnostics(page),
        html: page.html,
      },
      extra: { aioverview: aio, organic: parsed.organic },
    };
  },
};

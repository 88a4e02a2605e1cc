import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { settledOrTimeout } from '../common/engine-render.js';
import { buildSearchRequest, fetchSearchPage, renderDiagnostics, requestDiagnostics } from './search-request.js';

/** AIMODE: Google AI Mode (`udm=50`, docs/engines.md#google-ai-mode), one turn: the answer with its sources. */
export const aiMode: EngineAdapter = {
  taskType: 'AIMODE',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const req = buildSearchRequest(ctx, { udm: 50 });
    // In the browser the answer streams in; the render waits for the container to be stable
    // (docs/engines.md#browser-completion-rule).
    const page = await fetchSearchPage(ctx, req, 'aimode');
    const { text, markdown, sources, diagnostics, locale } = await settledOrTimeout(
      page.rendered?.complete ?? true,
      'google AI Mode',
      () => ctx.parse('google.aiMode', page),
    );
    return {
      text,
      markdown,
      sources,
      // AI Mode answers from Google Search by design: every answer searched (docs/contract.md#answer-signals).
      signals: { searchTriggered: true },
      ...(locale ? { locale } : {}),
      raw: {
        request: requestDiagnostics(req),
        status: page.status,
        finalUrl: page.finalUrl,
        ...diagnostics,
        ...renderDiagnostics(page),
        html: page.html,
      },
    };
  },
};

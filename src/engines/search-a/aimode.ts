import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { parseAiModePage } from './aimode-parser.js';
import { buildSearchRequest, fetchSearchPage, requestDiagnostics } from './search-request.js';

/** AIMODE: Google AI Mode (`udm=50`, upstreams.md 3), one turn: the answer with its sources. */
export const aiMode: EngineAdapter = {
  taskType: 'AIMODE',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const req = buildSearchRequest(ctx, { udm: 50 });
    const page = await fetchSearchPage(ctx, req);
    const { text, markdown, sources, diagnostics } = parseAiModePage(page);
    return {
      text,
      markdown,
      sources,
      raw: { request: requestDiagnostics(req), status: page.status, finalUrl: page.finalUrl, ...diagnostics, html: page.html },
    };
  },
};

import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import { settledOrTimeout } from '../common/engine-render.js';
import { AI_TAB_PARAMS } from './ai-tab-parser.js';
import { loadNaverAnswerPage, renderDiagnostics } from './browser-render.js';
import { naverSearchUrl } from './naver-http.js';

/** SEARCH_B_AI_TAB: Naver's conversational AI tab (URL and markup are a documented assumption, see ai-tab-parser). */
export const searchBAiTab: EngineAdapter = {
  taskType: 'SEARCH_B_AI_TAB',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const url = naverSearchUrl(ctx.config.upstream.baseUrl, { ...AI_TAB_PARAMS, query: promptOf(ctx.payload) });
    const page = await loadNaverAnswerPage(ctx, url, 'ai-tab', 'naver AI tab');
    const result = await settledOrTimeout(page.rendered?.complete ?? true, 'naver AI tab', () =>
      ctx.parse('naver.aiTab', page.html),
    );
    return {
      ...result,
      raw: { ...result.raw, status: page.status, finalUrl: page.finalUrl, ...renderDiagnostics(page) },
    };
  },
};

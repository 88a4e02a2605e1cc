import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import { settledOrTimeout } from '../common/engine-render.js';
import { loadNaverAnswerPage, renderDiagnostics } from './browser-render.js';
import { naverSearchUrl } from './naver-http.js';

/** SEARCH_B_AI_BRIEF: the AI briefing (AI 브리핑) on Naver's integrated search page. */
export const searchBAiBrief: EngineAdapter = {
  taskType: 'SEARCH_B_AI_BRIEF',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    // Integrated search (통합검색) as the search box submits it (docs/engines.md#naver-surfaces).
    const url = naverSearchUrl(ctx.config.upstream.baseUrl, {
      where: 'nexearch',
      sm: 'top_hty',
      fbm: '0',
      ie: 'utf8',
      query: promptOf(ctx.payload),
    });
    const page = await loadNaverAnswerPage(ctx, url, 'ai-brief', 'naver integrated search');
    const result = await settledOrTimeout(page.rendered?.complete ?? true, 'naver AI briefing', () =>
      ctx.parse('naver.aiBriefing', page.html),
    );
    return {
      ...result,
      raw: { ...result.raw, status: page.status, finalUrl: page.finalUrl, ...renderDiagnostics(page) },
    };
  },
};

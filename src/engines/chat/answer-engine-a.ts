import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { jsonBody, promptOf } from '../common/upstream-status.js';
import { assertOpenAiOk } from './openai-errors.js';
import { surfaceOf } from '../common/engine-render.js';
import { runPerplexityWeb } from './perplexity-web.js';
import { parseSonar } from './sonar-parser.js';

/**
 * ANSWER_ENGINE_A: Perplexity's Sonar API (OpenAI-compatible chat completions), `api` mode; with
 * `transport: "browser"` the web mode, Perplexity's own search page.
 */
export const answerEngineA: EngineAdapter = {
  taskType: 'ANSWER_ENGINE_A',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    if (surfaceOf(ctx) === 'app') return runPerplexityWeb(ctx);
    const { upstream } = ctx.config;
    if (!upstream.apiKey) throw new UpstreamFailure('AUTH_FAILED', 'no API key configured for ANSWER_ENGINE_A');
    const body = {
      model: String(upstream.options.model ?? 'sonar'),
      messages: [{ role: 'user', content: promptOf(ctx.payload) }],
      web_search_options: { search_context_size: 'medium', user_location: { country: ctx.country } },
      stream: false,
    };
    const res = await ctx.http.request({
      method: 'POST',
      url: `${upstream.baseUrl}/chat/completions`,
      headers: { ...upstream.headers, authorization: `Bearer ${upstream.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: ctx.signal,
    });
    // Sonar answers errors in the OpenAI shape (docs/engines.md#perplexity-sonar).
    assertOpenAiOk(res, 'ANSWER_ENGINE_A');
    return parseSonar(jsonBody(res, 'ANSWER_ENGINE_A'));
  },
};

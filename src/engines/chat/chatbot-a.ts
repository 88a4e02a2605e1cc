import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import { surfaceOf, usesBrowser } from '../common/engine-render.js';
import { runChatGptWeb } from './chatgpt-web.js';
import { assertOpenAiOk } from './openai-errors.js';
import { redactSecrets } from './secret-redaction.js';
import { approximateLocation } from './user-location.js';

/**
 * CHATBOT_A: OpenAI Responses API with the hosted `web_search` tool (docs/engines.md#openai-responses).
 *
 * `needsAccount` is static, but the runner leases an account of the kind the surface uses (config/account-kind.ts):
 * an `api` key for this surface in `account` mode, an `app` session for the app surface; in `api` mode no account
 * comes for the API and the adapter authenticates with `upstream.apiKey`.
 */
export const chatbotA: EngineAdapter = {
  taskType: 'CHATBOT_A',
  needsAccount: true,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    if (surfaceOf(ctx) === 'app') return runChatGptWeb(ctx);
    const { upstream } = ctx.config;
    // The runner leases an `api`-kind account for this surface (account-kind.ts) only in `account` mode with the
    // `http` transport; otherwise the provider key serves. An app session is never sent as a bearer token.
    const leased = ctx.account?.kind === 'api' ? ctx.account.secret : undefined;
    const key = usesBrowser(ctx.config) ? upstream.apiKey : (leased ?? upstream.apiKey);
    if (!key)
      throw new UpstreamFailure('AUTH_FAILED', 'CHATBOT_A: no account leased and no upstream.apiKey configured');
    const stream = upstream.options.stream !== false;
    const res = await ctx.http.request({
      method: 'POST',
      url: `${upstream.baseUrl}/v1/responses`,
      headers: {
        ...upstream.headers,
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: stream ? 'text/event-stream' : 'application/json',
      },
      body: JSON.stringify(responsesRequest(promptOf(ctx.payload), ctx.country, upstream.options, stream)),
      signal: ctx.signal,
    });
    assertOpenAiOk(res, 'CHATBOT_A');
    const result = await ctx.parse('chat.openaiResponses', {
      contentType: res.headers['content-type'],
      body: res.body,
    });
    return { ...result, raw: redactSecrets(result.raw, [key, upstream.apiKey]) };
  },
};

export function responsesRequest(
  prompt: string,
  country: string,
  options: Record<string, string | number | boolean>,
  stream: boolean,
): Record<string, unknown> {
  return {
    model: String(options.model ?? 'gpt-5-mini'),
    input: prompt,
    tools: [
      {
        type: 'web_search',
        search_context_size: String(options.searchContextSize ?? 'medium'),
        user_location: approximateLocation(country),
      },
    ],
    include: ['web_search_call.action.sources'],
    stream,
  };
}

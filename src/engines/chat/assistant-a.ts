import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import type { HttpResponse } from '../../transport/http-transport.js';
import { buildGeminiResult, parseGemini } from './gemini-parser.js';
import { resolveGroundingChunks } from './grounding-redirects.js';
import { redactSecrets, scrubMessage } from './secret-redaction.js';

/**
 * ASSISTANT_A: Gemini `generateContent` with Grounding with Google Search (docs/engines.md#gemini-grounding),
 * `api` mode.
 */
export const assistantA: EngineAdapter = {
  taskType: 'ASSISTANT_A',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const { upstream } = ctx.config;
    if (!upstream.apiKey) throw new UpstreamFailure('AUTH_FAILED', 'no API key configured for ASSISTANT_A');
    const model = encodeURIComponent(String(upstream.options.model ?? 'gemini-2.5-flash'));
    const res = await ctx.http.request({
      method: 'POST',
      url: `${upstream.baseUrl}/v1beta/models/${model}:generateContent`,
      headers: { ...upstream.headers, 'x-goog-api-key': upstream.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: promptOf(ctx.payload) }] }],
        tools: [{ google_search: {} }],
      }),
      signal: ctx.signal,
    });
    assertGeminiOk(res);
    let body: unknown;
    try {
      body = res.json();
    } catch {
      throw new UpstreamFailure('UPSTREAM_ERROR', 'ASSISTANT_A answered malformed JSON');
    }
    const parsed = parseGemini(body);
    const resolved = await resolveGroundingChunks(ctx.http, parsed.chunks, ctx.signal, upstream.baseUrl);
    const result = buildGeminiResult(parsed, resolved);
    return { ...result, raw: redactSecrets(result.raw, [upstream.apiKey]) };
  },
};

/** `{ error: { code, message, status, details } }` (docs/engines.md#gemini-grounding) to a failure kind. */
export function assertGeminiOk(res: HttpResponse): void {
  if (res.status >= 200 && res.status < 300) return;
  let err: Record<string, unknown> = {};
  try {
    const b = res.json() as { error?: unknown };
    if (b && typeof b.error === 'object' && b.error !== null) err = b.error as Record<string, unknown>;
  } catch {
    // not JSON: classify by status alone
  }
  const status = typeof err.status === 'string' ? err.status : '';
  const message = scrubMessage(err.message);
  const what = `ASSISTANT_A answered ${res.status}${status ? ` ${status}` : ''}${message ? `: ${message}` : ''}`;
  // An invalid key is a 400 INVALID_ARGUMENT whose details name API_KEY_INVALID.
  const keyInvalid = JSON.stringify(err.details ?? '').includes('API_KEY_INVALID');
  if (res.status === 429 || status === 'RESOURCE_EXHAUSTED') {
    const s = Number(res.headers['retry-after']);
    throw new UpstreamFailure('RATE_LIMITED', what, Number.isFinite(s) && s > 0 ? { retryAfterMs: s * 1000 } : {});
  }
  // An invalid key, a key without permission, or an unknown model: no retry with this key helps.
  if (
    res.status === 401 ||
    res.status === 403 ||
    keyInvalid ||
    status === 'PERMISSION_DENIED' ||
    (res.status === 404 && status === 'NOT_FOUND')
  ) {
    throw new UpstreamFailure('PROVIDER_REFUSED', `${what} (no retry helps until the key or model is fixed)`);
  }
  throw new UpstreamFailure('UPSTREAM_ERROR', what);
}

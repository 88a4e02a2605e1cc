import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpResponse } from '../../transport/http-transport.js';
import { scrubMessage } from './secret-redaction.js';

/** `{ error: { message, type, param, code } }` — the OpenAI error body (docs/engines.md#openai-responses). */
export interface OpenAiErrorInfo {
  code: string | null;
  type: string | null;
  message: string;
}

export function openAiErrorInfo(body: unknown): OpenAiErrorInfo {
  const err = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  const e = err && typeof err === 'object' ? (err as Record<string, unknown>) : {};
  return {
    code: typeof e.code === 'string' ? e.code : null,
    type: typeof e.type === 'string' ? e.type : null,
    message: scrubMessage(e.message),
  };
}

function retryAfterMs(res: HttpResponse): number | undefined {
  const ms = Number(res.headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms > 0) return ms;
  const s = Number(res.headers['retry-after']);
  return Number.isFinite(s) && s > 0 ? s * 1000 : undefined;
}

/**
 * Error codes and types of the OpenAI error shape (also Perplexity's) that no retry fixes
 * (docs/engines.md#openai-responses, #perplexity-sonar): billing and quota, the key, the model name.
 */
const PERMANENT_CODES: ReadonlySet<string> = new Set([
  'insufficient_quota',
  'billing_not_active',
  'billing_hard_limit_reached',
  'invalid_api_key',
  'account_deactivated',
  'model_not_found',
  'invalid_model',
]);

/** 400 codes that mean the prompt itself is too long for the model (OpenAI; Perplexity). */
const PROMPT_TOO_LONG: ReadonlySet<string> = new Set([
  'context_length_exceeded',
  'too_many_prompt_tokens',
  'string_above_max_length',
]);

/**
 * A 429 `rate_limit_exceeded` whose message starts "Request too large" asks for more tokens than the
 * per-minute limit allows at all ("Limit 2000000, Requested 2500013", recorded by ruby_llm): no wait
 * lets it through, and the account is not at fault.
 */
const REQUEST_TOO_LARGE = /^Request too large\b/i;

/**
 * Maps a non-2xx answer in the OpenAI error shape to a failure kind. 429 has three meanings:
 * `rate_limit_exceeded` (wait, cool the account down), `insufficient_quota` (billing: waiting does
 * not help, so no retry) and a single request over the per-minute token limit (the client's to
 * shorten, like a prompt too long for the model). 401 is the key itself; 402 is billing (Perplexity);
 * 403 is region or permission, which another exit address may pass; 400 is the request refused as
 * it stands (a prompt too long for the model is the client's to shorten). Details carry the error
 * code and a scrubbed message only: a 401 message quotes part of the key.
 */
export function assertOpenAiOk(res: HttpResponse, upstream: string): void {
  if (res.status >= 200 && res.status < 300) return;
  let body: unknown = null;
  try {
    body = res.json();
  } catch {
    // not JSON: classify by status alone
  }
  const info = openAiErrorInfo(body);
  const codePart = info.code ? ` ${info.code}` : '';
  const messagePart = info.message ? `: ${info.message}` : '';
  const what = `${upstream} answered ${res.status}${codePart}${messagePart}`;
  const permanent = [info.code, info.type].some((c) => c !== null && PERMANENT_CODES.has(c));
  if (permanent || res.status === 401 || res.status === 402) {
    throw new UpstreamFailure('PROVIDER_REFUSED', `${what} (no retry helps until the key, billing or model is fixed)`);
  }
  if (res.status === 429 && REQUEST_TOO_LARGE.test(info.message)) {
    throw new UpstreamFailure('BAD_PAYLOAD', `${what} (larger than the per-minute token limit; no retry helps)`, {
      clientMessage: 'payload.prompt is larger than the provider accepts in one request; shorten it.',
    });
  }
  if (res.status === 429) {
    const after = retryAfterMs(res);
    throw new UpstreamFailure('RATE_LIMITED', what, after === undefined ? {} : { retryAfterMs: after });
  }
  if (res.status === 403) throw new UpstreamFailure('AUTH_FAILED', what);
  // 400 is this request refused as it stands: the same request fails the same way again.
  if (res.status === 400) {
    if ([info.code, info.type].some((c) => c !== null && PROMPT_TOO_LONG.has(c))) {
      throw new UpstreamFailure('BAD_PAYLOAD', what, {
        clientMessage: 'payload.prompt is longer than the model accepts; shorten it.',
      });
    }
    throw new UpstreamFailure('PROVIDER_REFUSED', `${what} (the provider refused the request as it stands)`);
  }
  throw new UpstreamFailure('UPSTREAM_ERROR', what);
}

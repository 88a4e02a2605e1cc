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
  return openAiErrorFields(err);
}

/**
 * The fields of the inner error object itself (`body.error`, a stream's `error` event, a failed
 * response's `response.error`). A missing or non-string member reads as null (the message as '').
 */
function openAiErrorFields(err: unknown): OpenAiErrorInfo {
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
 * Maps an error in the OpenAI error shape, with the HTTP status it came with, to a failure kind.
 * 429 has three meanings: `rate_limit_exceeded` (wait, cool the account down),
 * `insufficient_quota` (billing: waiting does not help, so no retry) and a single request over the
 * per-minute token limit (the client's to shorten, like a prompt too long for the model). 401 is
 * the key itself; 402 is billing (Perplexity); 403 is region or permission, which another exit
 * address may pass; 400 is the request refused as it stands (a prompt too long for the model is the
 * client's to shorten). `what` names where the error was read; the detail carries the error code and
 * a scrubbed message only: a 401 message quotes part of the key.
 */
function classifyOpenAiError(
  status: number,
  info: OpenAiErrorInfo,
  what: string,
  retryAfter?: number,
): UpstreamFailure {
  const codePart = info.code ? ` ${info.code}` : '';
  const messagePart = info.message ? `: ${info.message}` : '';
  const detail = `${what}${codePart}${messagePart}`;
  const permanent = [info.code, info.type].some((c) => c !== null && PERMANENT_CODES.has(c));
  if (permanent || status === 401 || status === 402) {
    return new UpstreamFailure(
      'PROVIDER_REFUSED',
      `${detail} (no retry helps until the key, billing or model is fixed)`,
    );
  }
  if (status === 429 && REQUEST_TOO_LARGE.test(info.message)) {
    return new UpstreamFailure('BAD_PAYLOAD', `${detail} (larger than the per-minute token limit; no retry helps)`, {
      clientMessage: 'payload.prompt is larger than the provider accepts in one request; shorten it.',
    });
  }
  if (status === 429)
    return new UpstreamFailure('RATE_LIMITED', detail, retryAfter === undefined ? {} : { retryAfterMs: retryAfter });
  if (status === 403) return new UpstreamFailure('AUTH_FAILED', detail);
  // 400 is this request refused as it stands: the same request fails the same way again.
  if (status === 400) {
    if ([info.code, info.type].some((c) => c !== null && PROMPT_TOO_LONG.has(c))) {
      return new UpstreamFailure('BAD_PAYLOAD', detail, {
        clientMessage: 'payload.prompt is longer than the model accepts; shorten it.',
      });
    }
    return new UpstreamFailure('PROVIDER_REFUSED', `${detail} (the provider refused the request as it stands)`);
  }
  return new UpstreamFailure('UPSTREAM_ERROR', detail);
}

/** A non-2xx answer in the OpenAI error shape (also Perplexity's) as its failure (see classifyOpenAiError). */
export function assertOpenAiOk(res: HttpResponse, upstream: string): void {
  if (res.status >= 200 && res.status < 300) return;
  let body: unknown = null;
  try {
    body = res.json();
  } catch {
    // not JSON: classify by status alone
  }
  throw classifyOpenAiError(res.status, openAiErrorInfo(body), `${upstream} answered ${res.status}`, retryAfterMs(res));
}

/** Codes a streamed error shares with a 429 body: the same wait (and rest) applies. */
const RATE_LIMIT_CODES: ReadonlySet<string> = new Set(['rate_limit_exceeded', 'insufficient_quota']);

/**
 * Codes and types of a request refused as it stands (a 400 as a body): the Responses API's
 * `response.error` codes for the prompt and its images, and the generic `invalid_request_error`.
 */
const REQUEST_REFUSED: ReadonlySet<string> = new Set([
  'invalid_request_error',
  'invalid_prompt',
  'invalid_image',
  'invalid_image_format',
  'invalid_base64_image',
  'invalid_image_url',
  'image_too_large',
  'image_too_small',
  'image_parse_error',
  'image_content_policy_violation',
  'invalid_image_mode',
  'image_file_too_large',
  'unsupported_image_media_type',
  'empty_image_file',
  'failed_to_download_image',
  'image_file_not_found',
]);

/**
 * The HTTP status the same error carries as a JSON body. An error inside an event stream comes after
 * a 200 (the stream had started), so the status cannot tell it apart; the code and type can, and
 * they are the same ones the body gives (docs/engines.md#openai-responses): `invalid_api_key` is the
 * 401's, `rate_limit_exceeded` and `insufficient_quota` the 429's, a prompt too long and the
 * request's own faults the 400's. Anything else (`server_error`, an unknown code, none) is read as
 * a server fault, the one kind a retry may fix without a wait.
 */
function bodyStatusOf(info: OpenAiErrorInfo): number {
  const has = (set: ReadonlySet<string>) => [info.code, info.type].some((c) => c !== null && set.has(c));
  if (info.code === 'invalid_api_key' || info.type === 'invalid_api_key') return 401;
  if (has(RATE_LIMIT_CODES)) return 429;
  if (has(PROMPT_TOO_LONG) || has(REQUEST_REFUSED)) return 400;
  return 500;
}

/**
 * An error reported inside a 200 answer (a stream's `error` event, `response.failed`, a final
 * object with status `failed`) as the same failure its JSON body would be.
 */
export function streamedOpenAiError(err: unknown, what: string): UpstreamFailure {
  const info = openAiErrorFields(err);
  return classifyOpenAiError(bodyStatusOf(info), info, what);
}

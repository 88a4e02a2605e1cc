import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpResponse } from '../transport/http-transport.js';
import { scrubMessage } from './secret-redaction.js';

/** `{ error: { message, type, param, code } }` — the OpenAI error body (upstreams.md 6.1). */
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
 * Maps a non-2xx OpenAI answer to a failure kind. 429 has two meanings: `rate_limit_exceeded`
 * (wait, cool the account down) and `insufficient_quota` (billing: waiting does not help). Details
 * carry the error code and a scrubbed message only — a 401 message quotes part of the key.
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
  const what = `${upstream} answered ${res.status}${info.code ? ` ${info.code}` : ''}${info.message ? `: ${info.message}` : ''}`;
  if (res.status === 429) {
    if (info.code === 'insufficient_quota' || info.type === 'insufficient_quota') {
      throw new UpstreamFailure('AUTH_FAILED', `${what} — the key's quota or billing is exhausted; no retry with this key helps until billing is fixed`);
    }
    const after = retryAfterMs(res);
    throw new UpstreamFailure('RATE_LIMITED', what, after === undefined ? {} : { retryAfterMs: after });
  }
  if (res.status === 401 || res.status === 403) throw new UpstreamFailure('AUTH_FAILED', what);
  throw new UpstreamFailure('UPSTREAM_ERROR', what);
}

import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpResponse } from '../transport/http-transport.js';

/** Maps a non-2xx HTTP answer of a JSON API to a failure kind (upstreams.md section 0). */
export function assertOk(res: HttpResponse, upstream: string): void {
  if (res.status >= 200 && res.status < 300) return;
  const retryAfter = Number(res.headers['retry-after']);
  const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
  const opts = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (res.status === 429) throw new UpstreamFailure('RATE_LIMITED', `${upstream} answered 429`, opts);
  if (res.status === 401 || res.status === 403) throw new UpstreamFailure('AUTH_FAILED', `${upstream} answered ${res.status}`);
  throw new UpstreamFailure('UPSTREAM_ERROR', `${upstream} answered HTTP ${res.status}`);
}

/** Parses a JSON body or fails as UPSTREAM_ERROR (malformed JSON is an upstream fault, not a result). */
export function jsonBody(res: HttpResponse, upstream: string): unknown {
  try {
    return res.json();
  } catch {
    throw new UpstreamFailure('UPSTREAM_ERROR', `${upstream} answered malformed JSON`);
  }
}

export function promptOf(p: { prompt?: string; query?: string }): string {
  return (p.prompt ?? p.query ?? '').trim();
}

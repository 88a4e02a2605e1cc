import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpResponse } from '../../transport/http-transport.js';

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

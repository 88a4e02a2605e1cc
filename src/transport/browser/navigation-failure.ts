import { playwright } from './playwright.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import { coerceError } from '../../domain/coerce-error.js';

/** Chromium net errors that mean "no answer in time" rather than "refused" (net_error_list.h). */
const NET_TIMEOUTS = new Set(['ERR_TIMED_OUT', 'ERR_CONNECTION_TIMED_OUT', 'ERR_PROXY_CONNECTION_TIMED_OUT']);

/**
 * Turns anything a browser step threw into an UpstreamFailure. Details name the Chromium error
 * code only, never the URL or proxy (the proxy URL may hold credentials).
 */
export function navigationFailure(e: unknown, signal: AbortSignal, step: string): UpstreamFailure {
  if (e instanceof UpstreamFailure) return e;
  if (signal.aborted) return new UpstreamFailure('TIMEOUT', `browser ${step} aborted with the attempt`);
  if (e instanceof playwright().errors.TimeoutError) return new UpstreamFailure('TIMEOUT', `browser ${step} timed out`);
  const message = coerceError(e).message;
  const net = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  if (net) {
    if (NET_TIMEOUTS.has(net)) return new UpstreamFailure('TIMEOUT', `browser ${step}: ${net}`);
    return new UpstreamFailure('UPSTREAM_ERROR', `browser ${step}: ${net}`);
  }
  if (/has been closed|Target closed|browser has disconnected|crashed/i.test(message)) {
    return new UpstreamFailure('UPSTREAM_ERROR', `browser ${step}: the page or browser closed (${firstLine(message)})`);
  }
  return new UpstreamFailure('UPSTREAM_ERROR', `browser ${step}: ${firstLine(message)}`);
}

function firstLine(s: string): string {
  return (s.split('\n')[0] ?? '').slice(0, 200);
}

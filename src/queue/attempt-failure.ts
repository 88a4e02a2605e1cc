import { UpstreamFailure } from '../domain/engine-errors.js';
import { coerceError } from '../domain/coerce-error.js';

/**
 * What ended an attempt: the upstream (a refusal, a fault, a timeout, a legitimate absence) or our own
 * code (a parser bug, a TypeError). Only the first is the upstream's failure; the second is never
 * retried, never cools an exit address, and is logged with its stack.
 */
export type AttemptFailure = { origin: 'upstream'; failure: UpstreamFailure } | { origin: 'internal'; error: Error };

/** Error codes of the network, DNS and TLS layers and of undici: faults of the way to the upstream. */
const NETWORK_CODE = new RegExp(
  `^(${[
    'E(?!RR_)[A-Z0-9_]+',
    'UND_ERR_[A-Z_]+',
    'ERR_(TLS|SSL|SOCKET|HTTP2|STREAM_PREMATURE_CLOSE)[A-Z0-9_]*',
    'HPE_[A-Z_]+',
    '[A-Z_]*CERT[A-Z_]*',
    'UNABLE_TO_[A-Z_]+',
  ].join('|')})$`,
);
/** Error names of aborts and of the proxy tunnel. */
const NETWORK_NAMES = new Set(['AbortError', 'TimeoutError', 'ProxyFailure']);

/**
 * Sorts anything an attempt threw. UpstreamFailures are what adapters report; an abort caused by the
 * attempt's timeout is TIMEOUT; errors shaped like a network fault are UPSTREAM_ERROR; everything
 * else (TypeError, RangeError, an Error our code threw) is internal.
 */
export function classifyAttemptError(e: unknown, timedOut: boolean): AttemptFailure {
  if (timedOut) return { origin: 'upstream', failure: new UpstreamFailure('TIMEOUT', 'attempt timed out') };
  if (e instanceof UpstreamFailure) return { origin: 'upstream', failure: e };
  const err = coerceError(e);
  const code = codeOf(err);
  // A guarded page reader's private or unresolvable target (one error for both: src/net/address-guard.ts).
  if (code === 'PRIVATE_ADDRESS') {
    return {
      origin: 'upstream',
      failure: new UpstreamFailure('BAD_PAYLOAD', err.message, {
        clientMessage: 'payload.url must point to a host that resolves to a public address.',
      }),
    };
  }
  if (isNetworkError(err))
    return {
      origin: 'upstream',
      failure: new UpstreamFailure('UPSTREAM_ERROR', `${err.name}${code ? ` ${code}` : ''}: ${err.message}`),
    };
  return { origin: 'internal', error: err };
}

/** A fault of the connection to the upstream (directly, or as the cause of a wrapper such as fetch's TypeError). */
function isNetworkError(err: Error): boolean {
  for (let cur: unknown = err, depth = 0; cur instanceof Error && depth < 4; cur = cur.cause, depth++) {
    if (NETWORK_NAMES.has(cur.name)) return true;
    const code = codeOf(cur);
    if (code && NETWORK_CODE.test(code)) return true;
    if (typeof (cur as { syscall?: unknown }).syscall === 'string') return true;
  }
  return false;
}

function codeOf(err: Error): string | undefined {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

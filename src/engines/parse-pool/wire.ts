import { UPSTREAM_FAILURE_KINDS, UpstreamFailure, type UpstreamFailureKind } from '../../domain/engine-errors.js';
import { coerceError } from '../../domain/coerce-error.js';

/**
 * What crosses the thread boundary. A thrown value loses its class and own properties when it is
 * structured-cloned (an UpstreamFailure would arrive as a bare Error without its kind), so the
 * worker catches every failure and sends it as data; the main thread rebuilds it.
 */
export type WireError =
  | { type: 'upstream'; kind: UpstreamFailureKind; message: string; clientMessage?: string; retryAfterMs?: number }
  | { type: 'error'; name: string; message: string; stack?: string };

export type ParseReply<T> = { ok: true; value: T } | { ok: false; error: WireError };

/** A parse task as the worker receives it: the registered parser's name and its input. */
export interface ParseTask {
  name: string;
  input: unknown;
}

export function toWireError(e: unknown): WireError {
  if (e instanceof UpstreamFailure) {
    return {
      type: 'upstream',
      kind: e.kind,
      message: e.message,
      ...(e.clientMessage !== undefined ? { clientMessage: e.clientMessage } : {}),
      ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
    };
  }
  const err = coerceError(e);
  return {
    type: 'error',
    name: err.name,
    message: err.message,
    ...(err.stack !== undefined ? { stack: err.stack } : {}),
  };
}

/**
 * The failure as the main thread throws it: an UpstreamFailure again, or an Error with the worker's name, message
 * and stack.
 */
export function fromWireError(w: WireError): Error {
  if (w.type === 'upstream' && (UPSTREAM_FAILURE_KINDS as readonly string[]).includes(w.kind)) {
    return new UpstreamFailure(w.kind, w.message, {
      ...(w.clientMessage !== undefined ? { clientMessage: w.clientMessage } : {}),
      ...(w.retryAfterMs !== undefined ? { retryAfterMs: w.retryAfterMs } : {}),
    });
  }
  const err = new Error(w.message);
  err.name = w.type === 'error' ? w.name : 'Error';
  if (w.type === 'error' && w.stack !== undefined) err.stack = w.stack;
  return err;
}

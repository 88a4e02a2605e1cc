import { UpstreamFailure, type UpstreamFailureKind } from '../../src/domain/engine-errors.js';

/** The UpstreamFailure a parser or adapter throws; anything else (or nothing) fails the test. */
export function failureOf(fn: () => unknown): UpstreamFailure {
  try {
    fn();
  } catch (e) {
    if (e instanceof UpstreamFailure) return e;
    throw e;
  }
  throw new Error('expected an UpstreamFailure');
}

export const failureKind = (fn: () => unknown): UpstreamFailureKind => failureOf(fn).kind;

/** The same for an async call (adapters). */
export async function asyncFailureOf(fn: () => Promise<unknown>): Promise<UpstreamFailure> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof UpstreamFailure) return e;
    throw e;
  }
  throw new Error('expected an UpstreamFailure');
}

import type { IncomingMessage } from 'node:http';

/** A refused body declared larger than this is not read: the answer goes at once and the connection is closed. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** And for at most this long (a slow sender is cut off the same way). */
export const DRAIN_MAX_MS = 10_000;

/**
 * Reads and discards what is left of a request body. An answer sent while the client is still writing goes with
 * `connection: close`, and the socket is closed under the client's writes: it sees EPIPE or a reset instead of the
 * answer (curl without `Expect: 100-continue`, Python requests). Reading the rest first lets every client read the
 * 413, on a connection that stays open. Resolves true when the whole body was read.
 */
export function drainRequest(raw: IncomingMessage, maxBytes = DRAIN_MAX_BYTES, maxMs = DRAIN_MAX_MS): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  // Only a body of a declared, bounded size is read: a chunked one may never end, so it gets the answer at once.
  const declared = Number(raw.headers['content-length']);
  if (raw.destroyed || !Number.isFinite(declared) || declared > maxBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('error', done);
      raw.off('close', done);
      resolve(raw.complete);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > declared) done();
    };
    const timer = setTimeout(done, maxMs);
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('error', done);
    raw.once('close', done);
    raw.resume();
  });
}

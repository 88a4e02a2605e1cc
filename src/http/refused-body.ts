import type { IncomingMessage } from 'node:http';

/** A refused body declared larger than this is not read: the answer goes with `connection: close`. */
const READ_AFTER_ANSWER_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Whether the rest of a refused body should be read after the answer, on a connection kept open. Fastify answers a
 * body over the limit with `connection: close`, and the socket is closed under a client still writing it: the
 * client sees EPIPE or a reset instead of the 413 (curl without `Expect: 100-continue`, Python requests). Without
 * that header, Node reads and discards the unread rest of the request once the answer is sent. Only a body of a
 * declared, bounded size is read so; a chunked one may never end.
 */
export function readRestAfterAnswer(raw: IncomingMessage, maxBytes = READ_AFTER_ANSWER_MAX_BYTES): boolean {
  const declared = Number(raw.headers['content-length']);
  return !raw.destroyed && Number.isFinite(declared) && declared <= maxBytes;
}

import http from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestError, errorObject } from '../domain/request-errors.js';

/**
 * Requests the HTTP parser refuses before Fastify sees them (a request line or headers over 16 KiB, a raw byte that
 * is not allowed in a path, a malformed request line, a client too slow to send its headers): answered with the
 * error envelope like every other refusal, then the connection is closed (the parser cannot go on after it). The
 * sentence names the limit, never a byte of what was sent.
 */
export function clientErrorHandler(now: () => number) {
  return (err: Error & { code?: string }, socket: Duplex): void => {
    // A reset connection has nobody to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const e =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new RequestError('HEADERS_TOO_LARGE')
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new RequestError('REQUEST_TIMEOUT')
          : new RequestError('VALIDATION_ERROR', 'The request line or a header is not valid HTTP.', [
              {
                field: '',
                message: 'must be a valid HTTP/1.1 request (no raw control or non-ASCII bytes in the path)',
              },
            ]);
    const body = JSON.stringify({ success: false, error: errorObject(e, new Date(now())) });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${e.status} ${http.STATUS_CODES[e.status] ?? 'Error'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

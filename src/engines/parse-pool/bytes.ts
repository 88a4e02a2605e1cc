import { decodeBody } from '../../net/charset.js';
import type { HttpResponse } from '../../transport/http-transport.js';

/**
 * A Buffer crosses the thread boundary as a plain Uint8Array (structured clone keeps the bytes, not
 * the class); parsers that want Buffer methods view the same memory again, without a copy.
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The data of an HTTP answer (an HttpResponse without its methods), as a parse task carries it. */
export interface ResponseSnapshot {
  status: number;
  headers: Record<string, string>;
  url: string;
  body: Uint8Array;
}

export function snapshotOf(res: HttpResponse): ResponseSnapshot {
  return { status: res.status, headers: res.headers, url: res.url, body: res.body };
}

/** The HttpResponse again, decoding as the transport does (Content-Type charset, else meta tag, else UTF-8). */
export function responseOf(s: ResponseSnapshot): HttpResponse {
  const body = asBuffer(s.body);
  return {
    status: s.status,
    headers: s.headers,
    url: s.url,
    body,
    text: () => decodeBody(s.headers['content-type'], body),
    json: () => JSON.parse(body.toString('utf8')) as unknown,
  };
}

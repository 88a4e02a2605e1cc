import type { FetchRecord } from './types.js';

/**
 * The fetch record of a page whose text is already in hand (an evaluation set, a test): read over HTTP 200, no
 * retries, not from the cache, fetched at time 0.
 */
export function readPageRecord(text: string, url = 'https://x.test/'): FetchRecord {
  return {
    attempted: true,
    fromCache: false,
    retries: 0,
    durationMs: 0,
    page: {
      status: 'ok',
      httpStatus: 200,
      contentType: 'text/html',
      bytes: Buffer.byteLength(text),
      finalUrl: url,
      text,
      textSource: 'extracted',
      truncated: false,
      metadata: null,
      fetchedAt: 0,
      detail: null,
    },
  };
}

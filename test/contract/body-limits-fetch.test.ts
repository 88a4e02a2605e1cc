import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startIdleService, type RunningService } from '../helpers/service.js';

/**
 * An oversized body sent by a client that writes all of it before reading the answer (Node's own fetch, undici):
 * the client must get the contract's 413 envelope, never a socket error (EPIPE, ECONNRESET) because the server
 * closed the connection while the client was still writing.
 */
const MIB = 1024 * 1024;

describe('oversized bodies sent with fetch', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  it.each([
    ['/v1/async/task/batch', 9 * MIB],
    ['/v1/async/task/batch', 40 * MIB],
    ['/v1/source-influence', 2 * MIB],
  ])('%s with a %d-byte body answers 413 PAYLOAD_TOO_LARGE', async (path, size) => {
    const body = JSON.stringify([{ taskType: 'SEARCH_A', payload: { query: 'q' }, filler: 'x'.repeat(size) }]);
    for (let i = 0; i < 10; i++) {
      const r = await fetch(`${svc.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body,
      });
      expect(r.status).toBe(413);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    }
  });
});

import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startIdleService, type RunningService } from '../helpers/service.js';

const MIB = 1024 * 1024;

interface StreamedResult {
  status: number;
  body: any;
  /** Body bytes written before the answer arrived. */
  written: number;
}

/**
 * POSTs a body streamed in chunks, stopping as soon as the server answers. `declaredLength` sends a
 * Content-Length header (possibly larger than what is ever written); without it the body is chunked.
 */
function streamedPost(
  base: string,
  path: string,
  o: { declaredLength?: number; maxBytes: number; chunk: Buffer },
): Promise<StreamedResult> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, base);
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${TEST_KEY}`,
      'content-type': 'application/json',
    };
    if (o.declaredLength !== undefined) headers['content-length'] = o.declaredLength;
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers });
    let written = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body, written });
        req.destroy();
      });
    });
    // The server may close the connection once it refused the body; that is not a test failure.
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const pump = () => {
      while (!answered && written < o.maxBytes) {
        written += o.chunk.length;
        if (!req.write(o.chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered && o.declaredLength === undefined) req.end();
    };
    // A JSON array prefix, then filler: the server must refuse before it sees the end.
    req.write('[');
    pump();
  });
}

describe('body size limits', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  it('a batch declaring a Content-Length over 8 MiB is refused with 413 before its body is sent', async () => {
    // Only 64 KiB of the declared 9 MiB are ever written: an answer proves the server did not wait for the rest.
    const r = await streamedPost(svc.url, '/v1/async/task/batch', {
      declaredLength: 9 * MIB,
      maxBytes: 64 * 1024,
      chunk: Buffer.alloc(16 * 1024, 0x20),
    });
    expect(r.status).toBe(413);
    expect(r.body.success).toBe(false);
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(r.written).toBeLessThan(9 * MIB);
  });

  it('a chunked batch body is refused with 413 once it passes 8 MiB, without reading all of it', async () => {
    // Willing to send 64 MiB; the answer must come long before.
    const r = await streamedPost(svc.url, '/v1/async/task/batch', {
      maxBytes: 64 * MIB,
      chunk: Buffer.alloc(64 * 1024, 0x20),
    });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(r.written).toBeLessThan(32 * MIB);
  });

  it('a refused body of declared length is read to its end: the 413 comes on a kept connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: Buffer) =>
      new Promise<{ status: number; connection: string | undefined; socket: unknown }>((resolve, reject) => {
        const u = new URL('/v1/async/task/batch', svc.url);
        const req = http.request(
          {
            host: u.hostname,
            port: u.port,
            path: u.pathname,
            method: 'POST',
            agent,
            headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket }),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      const first = await post(Buffer.alloc(9 * MIB, 0x20));
      expect(first.status).toBe(413);
      expect(first.connection).not.toBe('close');
      const second = await post(Buffer.from('[]'));
      expect(second.status).toBe(400);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });

  it('a batch just under 8 MiB is accepted', async () => {
    // 500 items of ~16 000 characters: about 8 000 000 bytes, under 8 388 608.
    const items = Array.from({ length: 500 }, (_, i) => ({
      taskType: 'SEARCH_A',
      payload: { query: `${i} ${'x'.repeat(16_000)}` },
    }));
    const body = JSON.stringify(items);
    expect(Buffer.byteLength(body)).toBeLessThan(8 * MIB);
    expect(Buffer.byteLength(body)).toBeGreaterThan(7.5 * MIB);
    const r = await svc.call('POST', '/v1/async/task/batch', body);
    expect(r.status).toBe(200);
    expect(r.body.summary.succeeded).toBe(500);
  });

  it('a batch over 8 MiB sent in one piece -> 413 PAYLOAD_TOO_LARGE', async () => {
    const body = JSON.stringify([{ taskType: 'SEARCH_A', payload: { query: 'q' }, filler: 'x'.repeat(8 * MIB) }]);
    const r = await svc.call('POST', '/v1/async/task/batch', body);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a source-influence body over 1 MiB -> 413 PAYLOAD_TOO_LARGE', async () => {
    const body = JSON.stringify({ answer: 'a', citations: ['https://example.com/'], filler: 'x'.repeat(MIB) });
    const r = await svc.call('POST', '/v1/source-influence', body);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a source-influence body declaring over 1 MiB is refused before it is sent', async () => {
    const r = await streamedPost(svc.url, '/v1/source-influence', {
      declaredLength: 2 * MIB,
      maxBytes: 16 * 1024,
      chunk: Buffer.alloc(8 * 1024, 0x20),
    });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a source-influence body just under 1 MiB is accepted', async () => {
    const body = JSON.stringify({
      answer: 'a'.repeat(200_000),
      citations: Array.from({ length: 25 }, (_, i) => ({
        url: `https://example.com/${i}`,
        snippet: 's'.repeat(20_000),
      })),
      filler: 'f'.repeat(300_000),
    });
    expect(Buffer.byteLength(body)).toBeLessThan(MIB);
    const r = await svc.call('POST', '/v1/source-influence', body);
    expect(r.status).toBe(202);
  });

  it('the service still answers after the refusals', async () => {
    const r = await svc.raw('GET', '/health');
    expect(r.status).toBe(200);
  });
});

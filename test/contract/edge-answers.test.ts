import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startIdleService, type RunningService } from '../helpers/service.js';

/**
 * Answers that come from before the router: requests the HTTP parser refuses get the error envelope too, and the
 * root points a browser at the dashboard and a program at the API's map.
 */
describe('edge answers', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdleService();
  });
  afterAll(() => svc.stop());

  /** Writes raw bytes on a fresh connection and returns the status and the body of what comes back. */
  const rawExchange = (bytes: Buffer) =>
    new Promise<{ status: number; body: string; head: string }>((resolve, reject) => {
      const u = new URL(svc.url);
      const socket = net.connect(Number(u.port), u.hostname, () => socket.end(bytes));
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head = '', body = ''] = text.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), body, head });
      });
    });

  const envelope = (body: string) => JSON.parse(body) as { success: boolean; error: { code: string; message: string } };

  it('headers over 16 KiB: 431 in the error envelope', async () => {
    const r = await rawExchange(
      Buffer.from(
        `GET /v1/async/tasks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
          `X-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
      ),
    );
    expect(r.status).toBe(431);
    expect(r.head).toMatch(/content-type: application\/json/i);
    const e = envelope(r.body);
    expect(e.success).toBe(false);
    expect(e.error.code).toBe('HEADERS_TOO_LARGE');
  });

  it('a request line over 16 KiB: 431 in the error envelope', async () => {
    const r = await rawExchange(Buffer.from(`GET /v1/async/task/${'x'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(r.status).toBe(431);
    expect(envelope(r.body).error.code).toBe('HEADERS_TOO_LARGE');
  });

  it('a raw 0xFF byte in the path: 400 VALIDATION_ERROR in the envelope, echoing nothing', async () => {
    const r = await rawExchange(
      Buffer.concat([
        Buffer.from('GET /v1/async/task/'),
        Buffer.from([0xff]),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]),
    );
    expect(r.status).toBe(400);
    const e = envelope(r.body);
    expect(e.error.code).toBe('VALIDATION_ERROR');
    expect(r.body).not.toContain('\uFFFD');
  });

  it('GET / sends a browser to the dashboard and a program to a map of the API, without a key', async () => {
    const browser = await fetch(`${svc.url}/`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
      redirect: 'manual',
    });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/dashboard/');
    const program = await svc.raw('GET', '/');
    expect(program.status).toBe(200);
    expect(program.body).toMatchObject({ service: 'aeq', dashboard: '/dashboard/', openapi: '/openapi.json' });
  });
});

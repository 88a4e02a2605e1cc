import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local webhook receiver that counts deliveries per task id (body `task.id`), answering 200. */
export interface CountingReceiver {
  url: string;
  /** Distinct task ids received. */
  unique(): number;
  /** Requests beyond the first for a task id. */
  duplicates(): number;
  reset(): void;
  waitFor(n: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCountingReceiver(): Promise<CountingReceiver> {
  let seen = new Set<string>();
  let dups = 0;
  let waiter: { n: number; resolve: () => void } | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let id = '';
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { task?: { id?: unknown } };
        if (typeof body.task?.id === 'string') id = body.task.id;
      } catch {
        // counted under an empty id
      }
      if (seen.has(id)) dups++;
      else seen.add(id);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (waiter && seen.size >= waiter.n) {
        waiter.resolve();
        waiter = null;
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    unique: () => seen.size,
    duplicates: () => dups,
    reset() {
      seen = new Set();
      dups = 0;
    },
    waitFor(n, timeoutMs) {
      if (seen.size >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver saw ${seen.size} of ${n} deliveries after ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      });
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

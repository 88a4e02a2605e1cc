import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local webhook receiver that counts deliveries per task id (body `task.id`), answering 200 (after `delayMs`, when
 * given: a receiver that takes that long, so that deliveries are in flight). A delivery is counted when its body has
 * arrived, before the answer.
 */
export interface CountingReceiver {
  url: string;
  /** Distinct task ids received. */
  unique(): number;
  /** Requests beyond the first for a task id. */
  duplicates(): number;
  /** Requests per task id. */
  counts(): ReadonlyMap<string, number>;
  reset(): void;
  waitFor(n: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCountingReceiver(o: { delayMs?: number } = {}): Promise<CountingReceiver> {
  let seen = new Map<string, number>();
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
      seen.set(id, (seen.get(id) ?? 0) + 1);
      const answer = () => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      };
      if (o.delayMs) setTimeout(answer, o.delayMs);
      else answer();
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
    counts: () => seen,
    reset() {
      seen = new Map();
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

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver saw. */
export interface Received {
  /** 1-based arrival number. */
  n: number;
  /** Arrival time (Date.now()). */
  at: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** The body as received (the bytes a signature covers), as UTF-8 text. */
  raw: string;
  /** Status the receiver answered, or null while it holds the request (or never answered). */
  answered: number | null;
  /** True once a 2xx answer was fully written: the sender was told the delivery succeeded. */
  acknowledged: boolean;
}

/** What to do with a request: answer with a status, or hold it open without answering. */
export type Reply = number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests answered 2xx and flushed. */
  acknowledged(): Received[];
  /** Changes the answer policy (e.g. fail first, then succeed). */
  setPolicy(p: (r: Received) => Reply): void;
  /** Resolves when `pred` holds over the requests seen (checked on each arrival and every 20 ms). */
  waitUntil(pred: (all: Received[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A local webhook receiver on a free loopback port. Every request is recorded with its parsed JSON
 * body; the policy decides the answer (default 200).
 */
export async function startReceiver(policy: (r: Received) => Reply = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  let current = policy;
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      const r: Received = {
        n: received.length + 1,
        at: Date.now(),
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        raw: text,
        answered: null,
        acknowledged: false,
      };
      received.push(r);
      const reply = current(r);
      if (reply === 'hang') {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      r.answered = reply;
      res.on('finish', () => {
        if (reply >= 200 && reply < 300) r.acknowledged = true;
      });
      res.writeHead(reply, { 'content-type': 'text/plain' });
      res.end(reply === 204 ? undefined : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    acknowledged: () => received.filter((r) => r.acknowledged),
    setPolicy(p) {
      current = p;
    },
    async waitUntil(pred, timeoutMs = 20_000, what = 'receiver condition') {
      const deadline = Date.now() + timeoutMs;
      while (!pred(received)) {
        if (Date.now() > deadline)
          throw new Error(`${what} not met after ${timeoutMs} ms (${received.length} requests seen)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The Standard Webhooks headers of a delivery, as a receiver hands them to `Webhook.verify`. */
export function signatureHeaders(
  r: Received | undefined,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': String(r?.headers['webhook-id']),
    'webhook-timestamp': String(r?.headers['webhook-timestamp']),
    'webhook-signature': String(r?.headers['webhook-signature']),
  };
}

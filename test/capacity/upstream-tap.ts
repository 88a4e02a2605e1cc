import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** One request as the upstream received it. */
export interface TappedRequest {
  method: string;
  /** Path and query string, as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** True for a WebSocket upgrade (only its request line and headers are recorded). */
  upgrade: boolean;
}

export interface UpstreamTap {
  url: string;
  seen: TappedRequest[];
  /** The requests that arrived while `work` ran (run one task at a time for a clean slice). */
  during<T>(work: () => Promise<T>): Promise<{ result: T; requests: TappedRequest[] }>;
  close(): Promise<void>;
}

/**
 * A recording pass-through in front of the real simulator: the service's engines point their base
 * URLs here, every request (HTTP and WebSocket upgrades) is recorded as received and forwarded
 * unchanged to the simulator, whose answers go back unchanged. Tests then read exactly what the
 * upstream was sent.
 */
export async function startTap(targetBase: string): Promise<UpstreamTap> {
  const target = new URL(targetBase);
  const port = Number(target.port);
  const seen: TappedRequest[] = [];
  const sockets = new Set<net.Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: body.toString('utf8'),
        upgrade: false,
      });
      const out = http.request(
        {
          host: target.hostname,
          port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });

  server.on('upgrade', (req, client: net.Socket, head: Buffer) => {
    seen.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: '', upgrade: true });
    const up = net.connect(port, target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i] ?? '';
        lines.push(`${name}: ${name.toLowerCase() === 'host' ? target.host : (req.rawHeaders[i + 1] ?? '')}`);
      }
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    for (const s of [client, up]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        up.destroy();
      });
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${own}`,
    seen,
    async during(work) {
      const from = seen.length;
      const result = await work();
      return { result, requests: seen.slice(from) };
    },
    async close() {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

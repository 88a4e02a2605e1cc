import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * Local proxies for tests, on 127.0.0.1 with an ephemeral port: an HTTP(S) proxy (CONNECT tunnels
 * and absolute-form forwarding, optional Basic auth) and a SOCKS5 server (RFC 1928 CONNECT, no-auth
 * or RFC 1929 username/password). Both count what they carry and record the targets asked for.
 */

export interface ProxyCredentials {
  username: string;
  password: string;
}

export interface ProxyStats {
  /** Requests (HTTP proxy) or connections (SOCKS5) received, whatever became of them. */
  requests: number;
  /** Tunnels opened to a target. */
  tunnels: number;
  /** Requests or handshakes refused for missing or wrong credentials. */
  authFailures: number;
  /** `host:port` as asked for, in order (for SOCKS5: `[ipv4|ipv6|domain] host:port`). */
  targets: string[];
}

export interface TestProxy {
  port: number;
  stats: ProxyStats;
  /** The proxy URL for `scheme`, with percent-encoded credentials when given. */
  url(scheme: string, creds?: ProxyCredentials): string;
  close(): Promise<void>;
}

function newStats(): ProxyStats {
  return { requests: 0, tunnels: 0, authFailures: 0, targets: [] };
}

function proxyUrl(port: number, scheme: string, creds?: ProxyCredentials): string {
  const userinfo = creds ? `${encodeURIComponent(creds.username)}:${encodeURIComponent(creds.password)}@` : '';
  return `${scheme}://${userinfo}127.0.0.1:${port}`;
}

/** Tracks sockets so close() also ends tunnels, which the HTTP server no longer owns. */
function socketTracker(): { add(s: net.Socket): void; destroyAll(): void } {
  const open = new Set<net.Socket>();
  return {
    add(s) {
      open.add(s);
      s.once('close', () => open.delete(s));
    },
    destroyAll() {
      for (const s of open) s.destroy();
    },
  };
}

/** Listens on a free loopback port; close() also ends the tunnels the server no longer owns. */
async function listening(
  server: net.Server,
  stats: ProxyStats,
  sockets: ReturnType<typeof socketTracker>,
): Promise<TestProxy> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    stats,
    url: (scheme, creds) => proxyUrl(port, scheme, creds),
    close: () =>
      new Promise<void>((resolve) => {
        sockets.destroyAll();
        server.close(() => resolve());
      }),
  };
}

function splice(a: net.Socket, b: net.Socket): void {
  a.pipe(b);
  b.pipe(a);
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
}

/** Splits `host:port` / `[v6]:port`. */
function splitAuthority(a: string): { host: string; port: number } | null {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(a);
  return m?.[1] && m[2] ? { host: m[1], port: Number(m[2]) } : null;
}

/** An HTTP proxy; with `tls`, an HTTPS proxy (TLS between client and proxy). */
export async function startHttpProxy(
  opts: { auth?: ProxyCredentials; tls?: { key: string | Buffer; cert: string | Buffer } } = {},
): Promise<TestProxy> {
  const stats = newStats();
  const sockets = socketTracker();
  const expected = opts.auth
    ? `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`, 'utf8').toString('base64')}`
    : null;
  const authorized = (req: http.IncomingMessage): boolean => {
    if (expected === null || req.headers['proxy-authorization'] === expected) return true;
    stats.authFailures++;
    return false;
  };
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }) : http.createServer();
  server.on('connection', (s: net.Socket) => sockets.add(s));
  server.on('secureConnection', (s: net.Socket) => sockets.add(s));

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    stats.requests++;
    client.on('error', () => client.destroy());
    if (!authorized(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: ' +
          'Basic realm="test"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      );
      return;
    }
    const target = splitAuthority(req.url ?? '');
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    stats.targets.push(`${target.host}:${target.port}`);
    const upstream = net.connect({ host: target.host, port: target.port });
    sockets.add(upstream);
    upstream.once('error', () =>
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
    );
    upstream.once('connect', () => {
      stats.tunnels++;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      splice(client, upstream);
    });
  });

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    stats.requests++;
    if (!authorized(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not absolute-form http');
    } catch {
      res.writeHead(400).end();
      return;
    }
    stats.targets.push(target.host);
    // RFC 9112 3.2.2: with an absolute-form target, Host comes from the URI, not the received header.
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const out = http.request(target, { method: req.method ?? 'GET', headers, agent: false }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });

  return listening(server, stats, sockets);
}

/** Pulls exact byte counts off a socket (the server half of the SOCKS5 handshake). */
function byteReader(s: net.Socket): { read(n: number): Promise<Buffer>; stop(): Buffer } {
  let buf = Buffer.alloc(0);
  let waiting: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | null = null;
  const pump = () => {
    if (waiting && buf.length >= waiting.n) {
      const w = waiting;
      waiting = null;
      const out = buf.subarray(0, w.n);
      buf = buf.subarray(w.n);
      w.resolve(out);
    }
  };
  const onData = (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    pump();
  };
  s.on('data', onData);
  s.on('close', () => waiting?.reject(new Error('closed')));
  return {
    read: (n) =>
      new Promise<Buffer>((resolve, reject) => {
        waiting = { n, resolve, reject };
        pump();
      }),
    /** Stops reading; returns bytes that arrived after the handshake. */
    stop: () => {
      s.off('data', onData);
      return buf;
    },
  };
}

/** A SOCKS5 server; with `auth`, only username/password (method 0x02) is accepted. */
export async function startSocksProxy(opts: { auth?: ProxyCredentials } = {}): Promise<TestProxy> {
  const stats = newStats();
  const sockets = socketTracker();
  const server = net.createServer((client) => {
    sockets.add(client);
    stats.requests++;
    client.on('error', () => client.destroy());
    serveSocks(client, opts.auth ?? null, stats, sockets.add).catch(() => client.destroy());
  });
  return listening(server, stats, sockets);
}

const REPLY_OK = 0x00;
const REPLY_HOST_UNREACHABLE = 0x04;
const REPLY_REFUSED = 0x05;
const REPLY_COMMAND_UNSUPPORTED = 0x07;
const REPLY_ADDRESS_UNSUPPORTED = 0x08;

function reply(client: net.Socket, rep: number): void {
  // BND.ADDR 0.0.0.0:0: clients of CONNECT do not use it.
  client.write(Buffer.from([0x05, rep, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
}

async function serveSocks(
  client: net.Socket,
  auth: ProxyCredentials | null,
  stats: ProxyStats,
  track: (s: net.Socket) => void,
): Promise<void> {
  const reader = byteReader(client);
  const read = reader.read;
  const greeting = await read(2);
  if (greeting[0] !== 0x05) return void client.destroy();
  const methods = [...(await read(greeting[1] ?? 0))];
  const wanted = auth ? 0x02 : 0x00;
  if (!methods.includes(wanted)) {
    if (auth) stats.authFailures++;
    return void client.end(Buffer.from([0x05, 0xff]));
  }
  client.write(Buffer.from([0x05, wanted]));
  if (auth) {
    const [, ulen = 0] = await read(2);
    const user = (await read(ulen)).toString('utf8');
    const [plen = 0] = await read(1);
    const pass = (await read(plen)).toString('utf8');
    if (user !== auth.username || pass !== auth.password) {
      stats.authFailures++;
      return void client.end(Buffer.from([0x01, 0x01]));
    }
    client.write(Buffer.from([0x01, 0x00]));
  }
  const [, cmd, , atyp] = await read(4);
  let host: string;
  let kind: string;
  if (atyp === 0x01) {
    host = [...(await read(4))].join('.');
    kind = 'ipv4';
  } else if (atyp === 0x04) {
    const b = await read(16);
    host = Array.from({ length: 8 }, (_, i) => b.readUInt16BE(i * 2).toString(16)).join(':');
    kind = 'ipv6';
  } else if (atyp === 0x03) {
    const [len = 0] = await read(1);
    host = (await read(len)).toString('utf8');
    kind = 'domain';
  } else {
    return void reply(client, REPLY_ADDRESS_UNSUPPORTED);
  }
  const port = (await read(2)).readUInt16BE(0);
  stats.targets.push(`[${kind}] ${host}:${port}`);
  if (cmd !== 0x01) return void reply(client, REPLY_COMMAND_UNSUPPORTED);
  const upstream = net.connect({ host, port });
  track(upstream);
  upstream.once('error', (e: NodeJS.ErrnoException) => {
    reply(client, e.code === 'ECONNREFUSED' ? REPLY_REFUSED : REPLY_HOST_UNREACHABLE);
    client.end();
  });
  upstream.once('connect', () => {
    stats.tunnels++;
    const early = reader.stop();
    if (early.length > 0) upstream.write(early);
    reply(client, REPLY_OK);
    splice(client, upstream);
  });
}

import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExitAddressConfig } from '../../src/config/engine-config.js';
import { UpstreamFailure } from '../../src/domain/engine-errors.js';
import {
  UndiciTransport,
  dispatcherFor,
  socketOpenerFor,
  type ExitConnectOptions,
} from '../../src/transport/undici-transport.js';
import { asyncFailureOf, failureOf } from '../helpers/failures.js';
import { startHttpProxy, startSocksProxy, type ProxyCredentials, type TestProxy } from '../helpers/proxies.js';

const CERT = fs.readFileSync(new URL('./fixtures/test-only-cert.pem', import.meta.url));
const KEY = fs.readFileSync(new URL('./fixtures/test-only-key.pem', import.meta.url));
const TRUST_FIXTURE = { ca: CERT };

const US_CREDS: ProxyCredentials = { username: 'exit user@us', password: 'p:ss/w%rd é' };
const KR_CREDS: ProxyCredentials = { username: 'kr-user', password: 'socks-secret-kr' };

/** An upstream that says what it received, so a test can tell the request arrived intact. */
function echo(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end(
    `${req.method} ${req.url} host=${req.headers.host} proxy-auth=${req.headers['proxy-authorization'] ?? 'none'}`,
  );
}

async function listen(server: net.Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

async function closedPort(): Promise<number> {
  const s = net.createServer();
  const port = await listen(s, '127.0.0.1');
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** No form of the password may appear: plain, percent-encoded, or inside a Basic header. */
function expectNoSecret(text: string, creds: ProxyCredentials): void {
  expect(text).not.toContain(creds.password);
  expect(text).not.toContain(encodeURIComponent(creds.password));
  expect(text).not.toContain(Buffer.from(`${creds.username}:${creds.password}`).toString('base64'));
}

describe('exit addresses through HTTP(S) CONNECT and SOCKS5 proxies (transport)', () => {
  let upstream: http.Server;
  let upstreamPort: number;
  let upstream6: http.Server;
  let upstream6Port: number;
  let tlsUpstream: https.Server;
  let tlsUpstreamPort: number;
  let httpProxy: TestProxy;
  let httpAuthProxy: TestProxy;
  let httpsProxy: TestProxy;
  let socks: TestProxy;
  let socksAuth: TestProxy;
  let deadPort: number;
  const dispatchers: Dispatcher[] = [];

  beforeAll(async () => {
    upstream = http.createServer(echo);
    upstreamPort = await listen(upstream, '127.0.0.1');
    upstream6 = http.createServer(echo);
    upstream6Port = await listen(upstream6, '::1');
    tlsUpstream = https.createServer({ key: KEY, cert: CERT }, echo);
    tlsUpstreamPort = await listen(tlsUpstream, '127.0.0.1');
    httpProxy = await startHttpProxy();
    httpAuthProxy = await startHttpProxy({ auth: US_CREDS });
    httpsProxy = await startHttpProxy({ auth: US_CREDS, tls: { key: KEY, cert: CERT } });
    socks = await startSocksProxy();
    socksAuth = await startSocksProxy({ auth: KR_CREDS });
    deadPort = await closedPort();
  });

  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.close()));
  });

  afterAll(async () => {
    for (const s of [upstream, upstream6, tlsUpstream]) s.closeAllConnections();
    await Promise.all([httpProxy, httpAuthProxy, httpsProxy, socks, socksAuth].map((p) => p.close()));
    await Promise.all(
      [upstream, upstream6, tlsUpstream].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
    );
  });

  function transportVia(proxyUrl: string | undefined, opts: ExitConnectOptions = {}, guard = false): UndiciTransport {
    const exit: ExitAddressConfig = {
      id: 'exit-test-1',
      country: 'US',
      maxConcurrent: 4,
      ...(proxyUrl ? { proxyUrl } : {}),
    };
    const d = dispatcherFor(exit, guard, opts);
    dispatchers.push(d);
    return new UndiciTransport(exit.id, d, guard, socketOpenerFor(exit, guard, opts));
  }

  const get = (t: UndiciTransport, url: string) => t.request({ url, headers: { 'user-agent': 'aeq-test' } });

  it('reaches the upstream directly when the exit address has no proxy', async () => {
    const res = await get(transportVia(undefined), `http://127.0.0.1:${upstreamPort}/direct`);
    expect(res.text()).toBe(`GET /direct host=127.0.0.1:${upstreamPort} proxy-auth=none`);
  });

  it('an HTTP proxy without credentials tunnels the request with CONNECT', async () => {
    const before = httpProxy.stats.tunnels;
    const res = await get(transportVia(httpProxy.url('http')), `http://127.0.0.1:${upstreamPort}/plain?q=1`);
    expect(res.status).toBe(200);
    expect(res.text()).toBe(`GET /plain?q=1 host=127.0.0.1:${upstreamPort} proxy-auth=none`);
    expect(httpProxy.stats.targets).toContain(`127.0.0.1:${upstreamPort}`);
    expect(httpProxy.stats.tunnels).toBe(before + 1);
  });

  it(
    'an HTTP proxy with credentials gets Basic auth from the ' +
      'percent-decoded userinfo, and the upstream never sees it',
    async () => {
      const res = await get(transportVia(httpAuthProxy.url('http', US_CREDS)), `http://127.0.0.1:${upstreamPort}/auth`);
      expect(res.text()).toBe(`GET /auth host=127.0.0.1:${upstreamPort} proxy-auth=none`);
      expect(httpAuthProxy.stats.authFailures).toBe(0);
      expect(httpAuthProxy.stats.targets).toContain(`127.0.0.1:${upstreamPort}`);
    },
  );

  it('an HTTPS proxy (TLS to the proxy) carries plain and TLS targets', async () => {
    const t = transportVia(httpsProxy.url('https', US_CREDS), { proxyTls: TRUST_FIXTURE, targetTls: TRUST_FIXTURE });
    expect((await get(t, `http://127.0.0.1:${upstreamPort}/via-https-proxy`)).text()).toContain('GET /via-https-proxy');
    expect((await get(t, `https://localhost:${tlsUpstreamPort}/tls-in-tls`)).text()).toContain('GET /tls-in-tls');
    expect(httpsProxy.stats.targets).toEqual(
      expect.arrayContaining([`127.0.0.1:${upstreamPort}`, `localhost:${tlsUpstreamPort}`]),
    );
  });

  it('an https proxy whose certificate is not trusted is a proxy failure', async () => {
    const f = await asyncFailureOf(() =>
      get(transportVia(httpsProxy.url('https', US_CREDS)), `http://127.0.0.1:${upstreamPort}/x`),
    );
    expect(f.kind).toBe('UPSTREAM_BLOCKED');
    expect(f.message).toMatch(/^exit address exit-test-1: proxy https:\/\/127\.0\.0\.1:\d+ connection failed \(/);
  });

  it('SOCKS5 without auth: socks5 resolves names locally, socks5h lets the proxy resolve them', async () => {
    const local = await get(transportVia(socks.url('socks5')), `http://localhost:${upstreamPort}/local-dns`);
    expect(local.text()).toBe(`GET /local-dns host=localhost:${upstreamPort} proxy-auth=none`);
    expect(socks.stats.targets).toContain(`[ipv4] 127.0.0.1:${upstreamPort}`);
    const remote = await get(transportVia(socks.url('socks5h')), `http://localhost:${upstreamPort}/remote-dns`);
    expect(remote.text()).toContain('GET /remote-dns');
    expect(socks.stats.targets).toContain(`[domain] localhost:${upstreamPort}`);
  });

  it('SOCKS5 with username/password carries IPv4, IPv6 and TLS targets', async () => {
    const t = transportVia(socksAuth.url('socks5h', KR_CREDS), { targetTls: TRUST_FIXTURE });
    expect((await get(t, `http://127.0.0.1:${upstreamPort}/v4`)).text()).toContain('GET /v4');
    expect((await get(t, `http://[::1]:${upstream6Port}/v6`)).text()).toBe(
      `GET /v6 host=[::1]:${upstream6Port} proxy-auth=none`,
    );
    expect((await get(t, `https://localhost:${tlsUpstreamPort}/tls`)).text()).toContain('GET /tls');
    expect(socksAuth.stats.authFailures).toBe(0);
    expect(socksAuth.stats.targets).toEqual(
      expect.arrayContaining([
        `[ipv4] 127.0.0.1:${upstreamPort}`,
        `[ipv6] 0:0:0:0:0:0:0:1:${upstream6Port}`,
        `[domain] localhost:${tlsUpstreamPort}`,
      ]),
    );
  });

  it('an IPv6 target goes through CONNECT in bracketed form', async () => {
    expect((await get(transportVia(httpProxy.url('http')), `http://[::1]:${upstream6Port}/v6`)).text()).toContain(
      'GET /v6',
    );
    expect(httpProxy.stats.targets).toContain(`::1:${upstream6Port}`);
  });

  it('wrong credentials are UPSTREAM_BLOCKED naming the exit, never the password', async () => {
    const wrongHttp = { username: US_CREDS.username, password: 'wrong-http-secret' };
    const f1 = await asyncFailureOf(() =>
      get(transportVia(httpAuthProxy.url('http', wrongHttp)), `http://127.0.0.1:${upstreamPort}/`),
    );
    expect(f1.kind).toBe('UPSTREAM_BLOCKED');
    expect(f1.message).toBe(
      `exit address exit-test-1: proxy http://127.0.0.1:${httpAuthProxy.port} rejected the credentials (407 Proxy Authentication Required)`,
    );
    expectNoSecret(f1.message + (f1.stack ?? ''), wrongHttp);

    const wrongSocks = { username: KR_CREDS.username, password: 'wrong-socks-secret' };
    const before = socksAuth.stats.authFailures;
    const f2 = await asyncFailureOf(() =>
      get(transportVia(socksAuth.url('socks5', wrongSocks)), `http://127.0.0.1:${upstreamPort}/`),
    );
    expect(f2.kind).toBe('UPSTREAM_BLOCKED');
    expect(f2.message).toBe(
      `exit address exit-test-1: proxy socks5://127.0.0.1:${socksAuth.port} ` +
        `rejected the credentials (SOCKS5 username/password)`,
    );
    expectNoSecret(f2.message + (f2.stack ?? ''), wrongSocks);
    expect(socksAuth.stats.authFailures).toBe(before + 1);
  });

  it('a proxy that needs credentials the exit address lacks says so', async () => {
    const f1 = await asyncFailureOf(() =>
      get(transportVia(httpAuthProxy.url('http')), `http://127.0.0.1:${upstreamPort}/`),
    );
    expect(f1.message).toMatch(/requires authentication \(407\) and the exit address has no credentials$/);
    const f2 = await asyncFailureOf(() =>
      get(transportVia(socksAuth.url('socks5')), `http://127.0.0.1:${upstreamPort}/`),
    );
    expect(f2.message).toMatch(/requires authentication and the exit address has no credentials$/);
    expect([f1.kind, f2.kind]).toEqual(['UPSTREAM_BLOCKED', 'UPSTREAM_BLOCKED']);
  });

  it('a dead proxy is UPSTREAM_BLOCKED, for each kind', async () => {
    for (const scheme of ['http', 'https', 'socks5', 'socks5h']) {
      const f = await asyncFailureOf(() =>
        get(transportVia(`${scheme}://someone:dead-secret@127.0.0.1:${deadPort}`), `http://127.0.0.1:${upstreamPort}/`),
      );
      expect(f.kind).toBe('UPSTREAM_BLOCKED');
      expect(f.message).toBe(
        `exit address exit-test-1: proxy ${scheme}://127.0.0.1:${deadPort} connection failed (ECONNREFUSED)`,
      );
    }
  });

  it('a proxy that cannot reach the target refuses the tunnel: UPSTREAM_BLOCKED, another exit is tried', async () => {
    const f1 = await asyncFailureOf(() => get(transportVia(httpProxy.url('http')), `http://127.0.0.1:${deadPort}/`));
    expect(f1.message).toBe(
      `exit address exit-test-1: proxy http://127.0.0.1:${httpProxy.port} refused the tunnel to 127.0.0.1:${deadPort} (HTTP 502)`,
    );
    const f2 = await asyncFailureOf(() => get(transportVia(socks.url('socks5')), `http://127.0.0.1:${deadPort}/`));
    expect(f2.message).toBe(
      `exit address exit-test-1: proxy socks5://127.0.0.1:${socks.port} ` +
        `refused the connection to 127.0.0.1:${deadPort} (connection refused)`,
    );
    expect([f1.kind, f2.kind]).toEqual(['UPSTREAM_BLOCKED', 'UPSTREAM_BLOCKED']);
  });

  it('the private-address guard holds through a proxy: the proxy is never asked', async () => {
    const proxies = [httpProxy, socks];
    const asked = proxies.map((p) => p.stats.requests);
    for (const url of [httpProxy.url('http'), socks.url('socks5h')]) {
      const t = transportVia(url, {}, true);
      await expect(get(t, `http://127.0.0.1:${upstreamPort}/`)).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
      await expect(get(t, `http://localhost:${upstreamPort}/`)).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
      // A name that does not resolve fails as a private one does, word for word: no answer tells them apart.
      const refused = { code: 'PRIVATE_ADDRESS', message: 'target is not a public address that resolves' };
      await expect(get(t, `http://127.0.0.1:${upstreamPort}/`)).rejects.toMatchObject(refused);
      await expect(get(t, 'http://no-such-host.invalid/')).rejects.toMatchObject(refused);
      await expect(t.openSocket?.({ host: 'localhost', port: upstreamPort, tls: false })).rejects.toMatchObject({
        code: 'PRIVATE_ADDRESS',
      });
      // The dispatcher itself checks too, for callers that skip the transport.
      const d = dispatcherFor({ id: 'guarded', country: 'US', maxConcurrent: 1, proxyUrl: url }, true);
      dispatchers.push(d);
      await expect(
        d.request({ origin: `http://[::1]:${upstream6Port}`, path: '/', method: 'GET' }),
      ).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
    }
    expect(proxies.map((p) => p.stats.requests)).toEqual(asked);
  });

  it('openSocket gives a raw stream to the target through the proxy', async () => {
    const t = transportVia(socksAuth.url('socks5', KR_CREDS));
    const socket = await t.openSocket!({ host: '127.0.0.1', port: upstreamPort, tls: false });
    socket.write(`GET /raw HTTP/1.1\r\nhost: raw.test\r\nconnection: close\r\n\r\n`);
    const chunks: Buffer[] = [];
    for await (const c of socket) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toMatch(/^HTTP\/1\.1 200 [\s\S]*GET \/raw host=raw\.test/);
  });

  it('the test HTTP proxy also forwards absolute-form requests, with its own auth check (scaffolding)', async () => {
    const ask = (auth: string | null) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const headers: Record<string, string> = auth ? { 'proxy-authorization': auth } : {};
        const req = http.request(
          {
            host: '127.0.0.1',
            port: httpAuthProxy.port,
            path: `http://127.0.0.1:${upstreamPort}/absolute`,
            headers,
            agent: false,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect((await ask(null)).status).toBe(407);
    const ok = await ask(`Basic ${Buffer.from(`${US_CREDS.username}:${US_CREDS.password}`).toString('base64')}`);
    expect(ok).toEqual({ status: 200, body: `GET /absolute host=127.0.0.1:${upstreamPort} proxy-auth=none` });
  });

  it('a malformed proxy URL fails the attempt without echoing the URL', () => {
    const f = failureOf(() =>
      dispatcherFor(
        { id: 'bad-exit', country: 'US', maxConcurrent: 1, proxyUrl: 'http://user:bad-url-secret@[nope' },
        false,
      ),
    );
    expect(f).toBeInstanceOf(UpstreamFailure);
    expect(f.message).toBe('exit address bad-exit: proxy URL is malformed');
  });
});

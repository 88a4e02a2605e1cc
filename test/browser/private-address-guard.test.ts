import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../src/transport/browser/browser-pool.js';
import { createLogger } from '../../src/ops/logger.js';
import { asyncFailureOf } from '../helpers/failures.js';
import { CHROMIUM_PATH, chromiumAvailable } from './chromium.js';

/** A public address (example.com's); the test's exit proxy serves it from the local site instead. */
const PUBLIC = '93.184.215.14';

interface Hit {
  path: string;
  host: string;
}

/**
 * The browser's private-address guard (docs/security.md#browser-isolation): outside the sandbox,
 * every connection a page makes goes through the guard relay, which refuses private, loopback and
 * link-local targets after resolution. A public page (served through the exit's proxy) that loads
 * scripts, a frame, a fetch and a WebSocket from loopback, and a public URL that redirects to
 * loopback, reach nothing on this machine; without the guard, the same page does reach it.
 */
describe.skipIf(!chromiumAvailable())('browser private-address guard', () => {
  const hits: Hit[] = [];
  const proxied: string[] = [];
  let site: http.Server;
  let exitProxy: http.Server;
  const tunnels = new Set<net.Socket>();
  let sitePort = 0;
  let proxyUrl = '';
  const pools: BrowserPool[] = [];

  const page = () => `<!DOCTYPE html><html><body><p>A public page.</p>
<script async src="http://127.0.0.1:${sitePort}/private.js"></script>
<script async src="http://localhost:${sitePort}/by-name.js"></script>
<script async src="http://10.0.0.1/intranet.js"></script>
<iframe src="http://127.0.0.1:${sitePort}/frame"></iframe>
<script>
fetch('http://127.0.0.1:${sitePort}/fetched').catch(function () {});
try { new WebSocket('ws://127.0.0.1:${sitePort}/socket'); } catch (e) {}
setTimeout(function () { var d = document.createElement('div'); d.id = 'done'; document.body.appendChild(d); }, 800);
</script></body></html>`;

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      hits.push({ path: req.url ?? '', host: req.headers.host ?? '' });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${sitePort}/admin` });
        res.end();
        return;
      }
      res.setHeader('content-type', req.url === '/page' ? 'text/html' : 'text/plain');
      res.end(req.url === '/page' ? page() : 'private data');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    sitePort = (site.address() as AddressInfo).port;
    // The exit's proxy, standing for the internet: every CONNECT reaches the local site.
    exitProxy = http.createServer();
    exitProxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      proxied.push(req.url ?? '');
      tunnels.add(client);
      const upstream = net.connect(sitePort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => exitProxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(exitProxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const p of pools) await p.close();
    for (const t of tunnels) t.destroy();
    await new Promise((r) => exitProxy?.close(r));
    site?.closeAllConnections();
    await new Promise((r) => site?.close(r));
  });

  const poolOf = (guardPrivate: boolean) => {
    const pool = new BrowserPool({
      executablePath: CHROMIUM_PATH,
      maxPages: 2,
      log: createLogger('silent'),
      guardPrivate,
    });
    pools.push(pool);
    return pool;
  };
  const render = (pool: BrowserPool, exit: { id: string; proxyUrl?: string }, url: string) =>
    pool
      .forAttempt({ exit, country: 'US', signal: new AbortController().signal })
      .render(url, { waitFor: '#done', timeoutMs: 15_000 });
  const privatePaths = () => hits.map((h) => h.path).filter((p) => p !== '/page' && p !== '/redirect');

  it('guarded: the public page loads, and nothing of it reaches a private address', async () => {
    hits.length = 0;
    proxied.length = 0;
    const pool = poolOf(true);
    const rendered = await render(pool, { id: 'exit-guarded', proxyUrl }, `http://${PUBLIC}/page`);
    expect(rendered.status).toBe(200);
    expect(rendered.html).toContain('A public page.');
    await new Promise((r) => setTimeout(r, 300));
    expect(hits).toEqual([{ path: '/page', host: PUBLIC }]);
    expect(proxied).toEqual([`${PUBLIC}:80`]);
  });

  it('guarded: a redirect from a public page to a private address is refused', async () => {
    hits.length = 0;
    const pool = poolOf(true);
    const failure = await asyncFailureOf(() =>
      render(pool, { id: 'exit-guarded', proxyUrl }, `http://${PUBLIC}/redirect`),
    );
    expect(failure.kind).toBe('UPSTREAM_ERROR');
    expect(hits.map((h) => h.path)).toEqual(['/redirect']);
  });

  it('guarded, direct exit: a private page is refused by address and by name, as an unknown name is', async () => {
    hits.length = 0;
    const pool = poolOf(true);
    const messages: string[] = [];
    for (const origin of [`127.0.0.1:${sitePort}`, `localhost:${sitePort}`, 'no-such-host.invalid']) {
      const failure = await asyncFailureOf(() => render(pool, { id: 'exit-direct' }, `http://${origin}/page`));
      expect(failure.kind).toBe('UPSTREAM_ERROR');
      messages.push(failure.message);
    }
    expect(hits).toEqual([]);
    // One answer for all three: a page or a tenant cannot tell which private names exist.
    expect(new Set(messages).size).toBe(1);
  });

  it('unguarded (the control): the same page does reach the private addresses', async () => {
    hits.length = 0;
    const pool = poolOf(false);
    await render(pool, { id: 'exit-direct' }, `http://127.0.0.1:${sitePort}/page`);
    await new Promise((r) => setTimeout(r, 300));
    expect(privatePaths()).toEqual(expect.arrayContaining(['/private.js', '/by-name.js', '/frame', '/fetched']));
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '../../src/text/html-escape.js';

/**
 * A small local site for the browser transport tests: pages that change their DOM by script,
 * requests held until the test releases them, a page with an image, a header echo. Real sockets,
 * so what the browser sends is what the server sees.
 */
export interface TestSite {
  url: string;
  /** Requests to `/hold` not yet answered, by their `id` parameter. */
  readonly held: Map<string, { release(): void; closed: boolean }>;
  /** Most `/hold` requests pending at once. */
  readonly peakHeld: { value: number };
  /** Request counts by path. */
  readonly hits: Map<string, number>;
  /** `/hold` ids whose connection the client closed before an answer. */
  readonly abandoned: Set<string>;
  close(): Promise<void>;
}

const page = (body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

const ROUTES: Record<string, (req: http.IncomingMessage) => { status?: number; body: string }> = {
  // The answer arrives by script in two parts, after the document has loaded: late enough that a first probe on a
  // busy machine still finds the loading state.
  '/dynamic': () => ({
    body: page(`<main id="shell"><div id="answer" aria-busy="true">Loading</div></main>
<script>
setTimeout(function () { document.getElementById('answer').innerHTML = '<p>First part of the answer.</p>'; }, 1500);
setTimeout(function () {
  var a = document.getElementById('answer');
  a.innerHTML += '<p>Second part, with a <a href="https://example.org/source">source</a>.</p>';
  a.removeAttribute('aria-busy');
}, 1800);
</script>`),
  }),
  // A marker that never appears.
  '/static': () => ({ body: page('<main id="shell"><p>Nothing will change here.</p></main>') }),
  '/missing': () => ({ status: 404, body: page('<h1>Not found</h1>') }),
  '/with-image': () => ({ body: page('<img src="/pixel.png" alt=""><p id="text">Text beside an image.</p>') }),
  '/pixel.png': () => ({ body: 'not really a png' }),
  // What the browser sent and what its scripts see.
  '/echo': (req) => ({
    body: page(
      `<pre id="headers">${escapeHtml(JSON.stringify(req.headers))}</pre><p id="intl"></p>
<script>document.getElementById('intl').textContent = JSON.stringify({ language: navigator.language, languages: ` +
        `navigator.languages, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, ` +
        `userAgent: navigator.userAgent, ` +
        `brands: navigator.userAgentData ? navigator.userAgentData.brands.map(function ` +
        `(b) { return b.brand; }) : null });</script>`,
    ),
  }),
};

export async function startTestSite(): Promise<TestSite> {
  const held = new Map<string, { release(): void; closed: boolean }>();
  const peakHeld = { value: 0 };
  const hits = new Map<string, number>();
  const abandoned = new Set<string>();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://local');
    hits.set(u.pathname, (hits.get(u.pathname) ?? 0) + 1);
    if (u.pathname === '/hold') {
      const id = u.searchParams.get('id') ?? '?';
      const entry = {
        closed: false,
        release: () => {
          held.delete(id);
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(page(`<p id="released">${escapeHtml(id)}</p>`));
        },
      };
      res.on('close', () => {
        if (!res.writableEnded) {
          entry.closed = true;
          abandoned.add(id);
          held.delete(id);
        }
      });
      held.set(id, entry);
      peakHeld.value = Math.max(peakHeld.value, held.size);
      return;
    }
    if (u.pathname === '/never') return; // never answers
    if (u.pathname === '/redirect') {
      res.writeHead(302, { location: '/dynamic' }).end();
      return;
    }
    const route = ROUTES[u.pathname];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
      return;
    }
    const r = route(req);
    res.writeHead(r.status ?? 200, { 'content-type': 'text/html; charset=utf-8' }).end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    held,
    peakHeld,
    hits,
    abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A forward HTTP proxy that asks for Basic credentials and counts what it relays. */
export async function startAuthProxy(
  user: string,
  password: string,
): Promise<{ url: string; relayed: string[]; refused: number; close(): Promise<void> }> {
  const relayed: string[] = [];
  const state = { refused: 0 };
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const server = http.createServer((req, res) => {
    if (req.headers['proxy-authorization'] !== expected) {
      state.refused++;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-length': '0' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    relayed.push(target.pathname);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    relayed,
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` until it holds (no fixed sleeps: the condition is what the test waits for). */
export async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

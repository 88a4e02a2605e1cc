import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../src/transport/browser/browser-pool.js';
import type { BrowserTransport } from '../../src/transport/browser/browser-transport.js';
import { createLogger } from '../../src/ops/logger.js';
import { asyncFailureOf } from '../helpers/failures.js';
import { CHROMIUM_PATH, chromiumAvailable } from './chromium.js';

/** A composer page on a local server: Enter (or the send button) writes an answer from what was typed. */
const COMPOSER =
  `<!doctype html><html><body><textarea id="q"></textarea>` +
  `<button id="send">Send</button><div id="out"></div>
<script>
function answer() { setTimeout(function () { document.getElementById('out').textContent = 'You asked: ` +
  `' + document.getElementById('q').value; }, 100); }
document.getElementById('q').addEventListener('keydown', ` +
  `function (e) { if (e.key === 'Enter') { e.preventDefault(); answer(); } });
document.getElementById('send').addEventListener('click', answer);
</script></body></html>`;
const WALL = `<!doctype html><html><body><div id="login">Log in</div></body></html>`;

describe.skipIf(!chromiumAvailable())('browser render actions', () => {
  let server: http.Server;
  let url: string;
  let pool: BrowserPool;
  const browser = (): BrowserTransport =>
    pool.forAttempt({ exit: { id: 'direct-test' }, country: 'US', signal: new AbortController().signal });

  beforeAll(async () => {
    server = http.createServer((req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/wall' ? WALL : COMPOSER),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    pool = new BrowserPool({
      executablePath: CHROMIUM_PATH,
      maxPages: 2,
      log: createLogger('silent'),
      guardPrivate: false,
    });
  });
  afterAll(async () => {
    await pool.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fills, presses Enter, then waits by the completion rule', async () => {
    const page = await browser().render(`${url}/`, {
      waitFor: '#q',
      actions: [{ fill: '#q', text: 'descale a kettle' }, { press: 'Enter' }],
      until: async (p) => ((await p.read('#out'))?.text ?? '') !== '',
      stableSelector: '#out',
      stableMs: 100,
      pollMs: 50,
      timeoutMs: 15_000,
    });
    expect(page.complete).toBe(true);
    expect(page.html).toContain('You asked: descale a kettle');
  });

  it('clicks', async () => {
    const page = await browser().render(`${url}/`, {
      actions: [{ fill: '#q', text: 'by click' }, { click: '#send' }],
      until: async (p) => ((await p.read('#out'))?.text ?? '') !== '',
      timeoutMs: 15_000,
    });
    expect(page.html).toContain('You asked: by click');
  });

  it('an element that never appears is LAYOUT_CHANGED', async () => {
    const failure = await asyncFailureOf(() =>
      browser().render(`${url}/wall`, {
        actions: [{ fill: '#prompt-textarea', text: 'x' }],
        actionTimeoutMs: 500,
        timeoutMs: 15_000,
      }),
    );
    expect(failure.kind).toBe('LAYOUT_CHANGED');
    expect(failure.message).toMatch(/#prompt-textarea/);
  });

  it('a wall named in skipActionsIf skips the actions and returns the page', async () => {
    const page = await browser().render(`${url}/wall`, {
      waitFor: ['#q', '#login'],
      skipActionsIf: '#login',
      actions: [{ fill: '#q', text: 'x' }],
      timeoutMs: 15_000,
    });
    expect(page.complete).toBe(true);
    expect(page.html).toContain('Log in');
  });
});

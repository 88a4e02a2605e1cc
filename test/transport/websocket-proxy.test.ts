import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExitAddressConfig } from '../../src/config/engine-config.js';
import { collectChatEvents } from '../../src/engines/search-c/copilot-socket.js';
import { socketOpenerFor, type ExitConnectOptions } from '../../src/transport/undici-transport.js';
import { asyncFailureOf } from '../helpers/failures.js';
import { startHttpProxy, startSocksProxy, type ProxyCredentials, type TestProxy } from '../helpers/proxies.js';

const CERT = fs.readFileSync(new URL('./fixtures/test-only-cert.pem', import.meta.url));
const KEY = fs.readFileSync(new URL('./fixtures/test-only-key.pem', import.meta.url));
const CREDS: ProxyCredentials = { username: 'ws-user', password: 'ws-proxy-secret' };

/** A chat endpoint that answers the client's first frame with a two-frame turn. */
function chatServer(server: http.Server): WebSocketServer {
  const wss = new WebSocketServer({ server, path: '/c/api/chat' });
  wss.on('connection', (socket) =>
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { text?: string };
      socket.send(JSON.stringify({ event: 'appendText', text: `echo ${frame.text ?? ''}` }));
      socket.send(JSON.stringify({ event: 'done' }));
    }),
  );
  return wss;
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('the Copilot chat socket leaves through the exit address', () => {
  let plain: http.Server;
  let secure: https.Server;
  let plainPort: number;
  let securePort: number;
  let httpProxy: TestProxy;
  let socks: TestProxy;
  const servers: WebSocketServer[] = [];

  beforeAll(async () => {
    plain = http.createServer();
    secure = https.createServer({ key: KEY, cert: CERT });
    servers.push(chatServer(plain), chatServer(secure));
    plainPort = await listen(plain);
    securePort = await listen(secure);
    httpProxy = await startHttpProxy({ auth: CREDS });
    socks = await startSocksProxy({ auth: CREDS });
  });

  afterAll(async () => {
    for (const w of servers) for (const c of w.clients) c.terminate();
    await Promise.all([httpProxy.close(), socks.close()]);
    await Promise.all([plain, secure].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  });

  const via = (proxyUrl: string, opts: ExitConnectOptions = {}) => {
    const exit: ExitAddressConfig = { id: 'ws-exit', country: 'US', maxConcurrent: 1, proxyUrl };
    return { openSocket: socketOpenerFor(exit, false, opts) };
  };

  const chat = (url: string, transport: ReturnType<typeof via>) =>
    collectChatEvents({
      url,
      headers: {},
      firstFrame: JSON.stringify({ event: 'send', text: 'hello' }),
      signal: new AbortController().signal,
      graceMs: 0,
      http: transport,
    });

  it('ws:// through an HTTP CONNECT proxy with credentials', async () => {
    const t = await chat(`ws://127.0.0.1:${plainPort}/c/api/chat`, via(httpProxy.url('http', CREDS)));
    expect(t.events).toEqual([{ event: 'appendText', text: 'echo hello' }, { event: 'done' }]);
    expect(httpProxy.stats.targets).toContain(`127.0.0.1:${plainPort}`);
  });

  it('wss:// through SOCKS5 with credentials (TLS to the chat host over the tunnel)', async () => {
    const t = await chat(
      `wss://localhost:${securePort}/c/api/chat`,
      via(socks.url('socks5h', CREDS), { targetTls: { ca: CERT } }),
    );
    expect(t.events.map((e) => e.event)).toEqual(['appendText', 'done']);
    expect(socks.stats.targets).toContain(`[domain] localhost:${securePort}`);
  });

  it('a proxy failure keeps its kind, so the exit address rests', async () => {
    const wrong = { username: CREDS.username, password: 'not-the-password' };
    const f = await asyncFailureOf(() =>
      chat(`ws://127.0.0.1:${plainPort}/c/api/chat`, via(socks.url('socks5', wrong))),
    );
    expect(f.kind).toBe('UPSTREAM_BLOCKED');
    expect(f.message).toBe(
      `exit address ws-exit: proxy socks5://127.0.0.1:${socks.port} ` +
        `rejected the credentials (SOCKS5 username/password)`,
    );
  });
});

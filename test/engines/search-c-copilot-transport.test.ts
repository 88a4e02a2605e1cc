import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EngineConfig } from '../../src/config/engine-config.js';
import type { AttemptContext, AttemptAccount } from '../../src/engines/adapter.js';
import { searchCAssistant } from '../../src/engines/search-c/search-c-assistant.js';
import { UndiciTransport } from '../../src/transport/undici-transport.js';
import { asyncFailureOf } from '../helpers/failures.js';
import { inlineParse } from '../../src/engines/parse-pool/pool.js';

/**
 * The Copilot adapter against a small local upstream whose answers each test chooses: the wire
 * situations the prompt directives of the sandbox cannot reach (HTTP-level blocks, a refused
 * upgrade, a socket kept open after `done`, a socket cut mid-answer, a signed-in session).
 */
interface Scenario {
  http(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** Return false to refuse the upgrade with the status written by the scenario. */
  upgrade?(req: http.IncomingMessage, socket: import('node:stream').Duplex): boolean;
  chat?(ws: WebSocket, frame: { conversationId?: string; content?: Array<{ text?: string }> }): void;
}

const anonymousHttp: Scenario['http'] = (req, res) => {
  if (req.url === '/c/api/user')
    return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
  if (req.url === '/c/api/conversations' && req.method === 'POST')
    return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"conv-1"}');
  res.writeHead(404).end();
};

const CLOUDFLARE_PAGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="challenge-platform">' +
  '</div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>';

let scenario: Scenario = { http: anonymousHttp };
const seen: { upgradeUrls: string[]; authorization: Array<string | undefined> } = {
  upgradeUrls: [],
  authorization: [],
};
const server = http.createServer((req, res) => {
  seen.authorization.push(req.headers.authorization);
  scenario.http(req, res);
});
const wss = new WebSocketServer({ noServer: true });
server.on('upgrade', (req, socket, head) => {
  seen.upgradeUrls.push(req.url ?? '');
  if (scenario.upgrade && !scenario.upgrade(req, socket)) return;
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { event?: string } & Parameters<NonNullable<Scenario['chat']>>[1];
      if (frame.event === 'send') scenario.chat?.(ws, frame);
    });
  });
});
let baseUrl = '';
const agent = new Agent();

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const ws of wss.clients) ws.terminate();
  seen.upgradeUrls.length = 0;
  seen.authorization.length = 0;
});
afterAll(async () => {
  wss.close();
  await new Promise((r) => server.close(r));
  await agent.close();
});

function context(opts: { signal?: AbortSignal; account?: AttemptAccount; graceMs?: number } = {}): AttemptContext {
  const config: EngineConfig = {
    mode: 'anon',
    concurrency: 1,
    timeoutMs: 5000,
    maxAttempts: 1,
    credits: 2,
    neverServe: [],
    paused: false,
    upstream: { baseUrl, headers: {}, options: { doneGraceMs: opts.graceMs ?? 50 } },
  };
  return {
    taskId: 'task-1',
    tenant: 'default',
    taskType: 'SEARCH_C_ASSISTANT',
    payload: { prompt: 'what is a heat pump' },
    country: 'US',
    config,
    http: new UndiciTransport('test-exit', agent, false),
    account: opts.account ?? null,
    signal: opts.signal ?? new AbortController().signal,
    parse: inlineParse(),
    log: pino({ level: 'silent' }),
    attempt: 1,
  };
}

const failureKind = async (ctx: AttemptContext): Promise<string> =>
  (await asyncFailureOf(() => searchCAssistant.run(ctx))).kind;

const send = (ws: WebSocket, e: Record<string, unknown>) => ws.send(JSON.stringify(e));

describe('SEARCH_C_ASSISTANT against a local Copilot-like upstream', () => {
  it('waits the grace after done for late citations when the server keeps the socket open', async () => {
    scenario = {
      http: anonymousHttp,
      chat(ws, frame) {
        expect(frame.conversationId).toBe('conv-1');
        send(ws, { event: 'appendText', messageId: 'm', partId: '0', text: 'Heat pumps move heat [1].' });
        send(ws, { event: 'ping' });
        send(ws, { event: 'done', messageId: 'm' });
        send(ws, { event: 'citation', url: 'https://energy.example.gov/heat-pumps', title: 'Heat pumps' });
        // The socket stays open, as the real service leaves it: the client ends after its grace.
      },
    };
    const r = await searchCAssistant.run(context());
    expect(r.markdown).toBe('Heat pumps move heat [1].');
    expect(r.sources).toEqual([{ position: 1, url: 'https://energy.example.gov/heat-pumps', label: 'Heat pumps' }]);
    expect(r.raw).toMatchObject({ endedBy: 'grace', signedIn: false, userStatus: 401, conversationId: 'conv-1' });
    expect(seen.upgradeUrls).toEqual(['/c/api/chat?api-version=2']);
  });

  it('reports a socket closed before done as UPSTREAM_ERROR', async () => {
    scenario = {
      http: anonymousHttp,
      chat(ws) {
        send(ws, { event: 'appendText', messageId: 'm', partId: '0', text: 'Heat pumps' });
        ws.close(1011);
      },
    };
    expect(await failureKind(context())).toBe('UPSTREAM_ERROR');
  });

  it('reports a refused upgrade (403) as UPSTREAM_BLOCKED', async () => {
    scenario = {
      http: anonymousHttp,
      upgrade(_req, socket) {
        socket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\nForbidden');
        return false;
      },
    };
    expect(await failureKind(context())).toBe('UPSTREAM_BLOCKED');
  });

  it('reports a challenge page on /c/api/user as UPSTREAM_BLOCKED, with 403 or with 200', async () => {
    for (const status of [403, 200]) {
      scenario = {
        http: (_req, res) => void res.writeHead(status, { 'content-type': 'text/html' }).end(CLOUDFLARE_PAGE),
      };
      expect(await failureKind(context())).toBe('UPSTREAM_BLOCKED');
    }
  });

  it('maps conversation failures: 503 UPSTREAM_ERROR, 429 RATE_LIMITED, a missing id LAYOUT_CHANGED', async () => {
    const conversationAnswer = (status: number, body: string) => ({
      http: (req: http.IncomingMessage, res: http.ServerResponse) =>
        req.url === '/c/api/conversations'
          ? void res.writeHead(status, { 'content-type': 'application/json' }).end(body)
          : anonymousHttp(req, res),
    });
    scenario = conversationAnswer(503, '{"error":"unavailable"}');
    expect(await failureKind(context())).toBe('UPSTREAM_ERROR');
    scenario = conversationAnswer(429, '{"error":"too many requests"}');
    expect(await failureKind(context())).toBe('RATE_LIMITED');
    scenario = conversationAnswer(200, '{"conversation":{}}');
    expect(await failureKind(context())).toBe('LAYOUT_CHANGED');
  });

  it('closes the socket when the attempt is aborted', async () => {
    let started = false;
    const closed = new Promise<void>((resolve) => {
      scenario = {
        http: anonymousHttp,
        chat(ws) {
          started = true;
          send(ws, { event: 'startMessage', messageId: 'm' });
          ws.on('close', () => resolve());
        },
      };
    });
    const ac = new AbortController();
    const run = searchCAssistant.run(context({ signal: ac.signal }));
    const outcome = run.then(
      () => 'resolved',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    // Abort once the server has the send frame and the answer has started.
    await waitFor(() => started);
    ac.abort(new Error('attempt timed out'));
    expect(await outcome).toBe('attempt timed out');
    await closed;
  });

  it('uses a signed-in session token on the HTTP calls and the socket, and keeps it out of the result', async () => {
    scenario = {
      http: (req, res) => {
        if (req.url === '/c/api/user')
          return void res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"firstName":"Ada","email":"ada@example.com"}');
        return anonymousHttp(req, res);
      },
      chat(ws) {
        send(ws, { event: 'appendText', messageId: 'm', partId: '0', text: 'Answer.' });
        send(ws, { event: 'done', messageId: 'm' });
        ws.close(1000);
      },
    };
    const r = await searchCAssistant.run(
      context({ account: { id: 'acct-1', country: 'US', kind: 'app', secret: 'tok-secret-123' } }),
    );
    expect(seen.authorization.every((a) => a === 'Bearer tok-secret-123')).toBe(true);
    expect(seen.upgradeUrls[0]).toBe('/c/api/chat?api-version=2&accessToken=tok-secret-123');
    expect(r.raw).toMatchObject({ signedIn: true, endedBy: 'server-close' });
    expect(JSON.stringify(r)).not.toContain('tok-secret-123');
    expect(JSON.stringify(r)).not.toContain('ada@example.com');
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

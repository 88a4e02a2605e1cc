import type net from 'node:net';
import WebSocket from 'ws';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { HttpTransport } from '../../transport/http-transport.js';
import { endsTurn, type CopilotEvent } from './copilot-events.js';
import { coerceError } from '../../domain/coerce-error.js';

export interface ChatSocketOptions {
  /** ws:// or wss:// URL of the chat endpoint (may carry an access token: never log it). */
  url: string;
  headers: Record<string, string>;
  /** The one frame the client sends after the socket opens (the `send` event). */
  firstFrame: string;
  signal: AbortSignal;
  /** How long to keep listening after `done` for late `citation` / `suggestedFollowups` frames. */
  graceMs: number;
  /** The attempt's transport: when it can open sockets, the chat socket leaves through the same exit address. */
  http?: Pick<HttpTransport, 'openSocket'>;
}

export interface ChatTranscript {
  events: CopilotEvent[];
  /** How collection ended: grace elapsed after done, an error frame, or the server closed the socket. */
  endedBy: 'grace' | 'error-event' | 'server-close';
  closeCode: number | null;
}

const MAX_FRAME_BYTES = 4 * 1024 * 1024;
const MAX_EVENTS = 20_000;

/** The WebSocket URL of a path under an HTTP(S) base URL: same host and prefix, ws(s) scheme. */
export function socketUrl(baseUrl: string, path: string, query: Record<string, string>): string {
  const u = new URL(baseUrl);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = u.pathname.replace(/(?<!\/)\/+$/, '') + path;
  u.search = new URLSearchParams(query).toString();
  u.hash = '';
  return u.toString();
}

/**
 * Opens the chat socket, sends the first frame and collects JSON frames until the turn ends (`done`
 * plus a short grace, or an error frame) or the server closes the socket. Folding the events into an
 * answer is left to the caller, so a cut stream is reported by the same code that reads transcripts.
 *
 * With `http` given, the socket is opened through the attempt's exit address (its proxy, if any);
 * without it, from the host's own address.
 */
export function collectChatEvents(opts: ChatSocketOptions): Promise<ChatTranscript> {
  return new Promise<ChatTranscript>((resolve, reject) => {
    if (opts.signal.aborted) {
      reject(abortError(opts.signal));
      return;
    }
    const events: CopilotEvent[] = [];
    let settled = false;
    let graceTimer: NodeJS.Timeout | null = null;
    const open = opts.http?.openSocket?.bind(opts.http);
    const ws = new WebSocket(opts.url, {
      headers: opts.headers,
      maxPayload: MAX_FRAME_BYTES,
      ...(open ? { createConnection: connectThrough(open, opts.url) } : {}),
    });

    const settle = (outcome: { transcript: ChatTranscript } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      if (graceTimer) clearTimeout(graceTimer);
      opts.signal.removeEventListener('abort', onAbort);
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      else if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.transcript);
    };
    const finish = (endedBy: ChatTranscript['endedBy'], closeCode: number | null = null) =>
      settle({ transcript: { events, endedBy, closeCode } });
    const onAbort = () => {
      ws.terminate();
      settle({ error: abortError(opts.signal) });
    };
    opts.signal.addEventListener('abort', onAbort, { once: true });

    ws.on('unexpected-response', (req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      req.destroy();
      settle({ error: upgradeRefused(status) });
    });
    ws.on('open', () => ws.send(opts.firstFrame));
    ws.on('message', (data, isBinary) => {
      if (settled) return;
      const frame = parseFrame(isBinary ? null : data.toString());
      if (!frame) {
        settle({ error: new UpstreamFailure('UPSTREAM_ERROR', 'copilot: malformed socket frame') });
        return;
      }
      if (frame.event === 'ping') {
        ws.send(JSON.stringify({ event: 'pong' }));
        return;
      }
      events.push(frame);
      if (events.length > MAX_EVENTS) {
        settle({ error: new UpstreamFailure('UPSTREAM_ERROR', `copilot: more than ${MAX_EVENTS} frames`) });
      } else if (frame.event === 'done') {
        graceTimer ??= setTimeout(() => finish('grace'), opts.graceMs);
      } else if (endsTurn(frame)) {
        finish('error-event');
      }
    });
    ws.on('close', (code) => finish('server-close', code));
    ws.on('error', (err) =>
      // A proxy failure keeps its kind (UPSTREAM_BLOCKED), so the exit address rests and the retry moves on.
      settle({
        error:
          err instanceof UpstreamFailure
            ? err
            : new UpstreamFailure('UPSTREAM_ERROR', `copilot socket error: ${err.message}`),
      }),
    );
  });
}

/**
 * A `createConnection` for the socket's HTTP upgrade request that opens the connection through the
 * transport. Node's HTTP client accepts the socket later through the callback; ws's typings only
 * describe the synchronous form, hence the cast.
 */
function connectThrough(open: NonNullable<HttpTransport['openSocket']>, url: string): typeof net.createConnection {
  const u = new URL(url);
  const secure = u.protocol === 'wss:';
  const target = { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port) || (secure ? 443 : 80), tls: secure };
  const create = (_options: unknown, oncreate: (err: Error | null, socket?: net.Socket) => void): undefined => {
    open(target).then(
      (socket) => oncreate(null, socket),
      (e: unknown) => oncreate(coerceError(e)),
    );
    return undefined;
  };
  return create as unknown as typeof net.createConnection;
}

function parseFrame(text: string | null): CopilotEvent | null {
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as CopilotEvent) : null;
  } catch {
    return null;
  }
}

/** Upgrade refusals (docs/engines.md#copilot-chat): 403 is the block signal; 429 a rate limit; the rest faults. */
function upgradeRefused(status: number): UpstreamFailure {
  if (status === 403) return new UpstreamFailure('UPSTREAM_BLOCKED', 'copilot: socket upgrade refused with 403');
  if (status === 429) return new UpstreamFailure('RATE_LIMITED', 'copilot: socket upgrade refused with 429');
  if (status === 401)
    return new UpstreamFailure('CONSENT_REQUIRED', 'copilot: socket upgrade needs a signed-in session');
  return new UpstreamFailure('UPSTREAM_ERROR', `copilot: socket upgrade refused with HTTP ${status}`);
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

import type { Socket } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import type { ExitAddressConfig } from '../config/engine-config.js';
import { assertPublicHost, guardedLookup, isRefusedOrUnresolved, RefusedTargetError } from '../net/address-guard.js';
import { decodeBody } from '../net/charset.js';
import { UpstreamFailure } from '../domain/engine-errors.js';
import type { HttpRequest, HttpResponse, HttpTransport, SocketTarget } from './http-transport.js';
import { parseProxyUrl } from './proxy-endpoint.js';
import { openSocket, tunnelConnector, type TunnelOptions } from './tunnel.js';

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/** Connection options beyond the exit address itself (private CAs, the tunnel's time bound). */
export type ExitConnectOptions = Omit<TunnelOptions, 'guardPrivate'>;

/**
 * One undici dispatcher per exit address (keep-alive pools are per address): direct, or every
 * connection tunnelled through the exit's HTTP(S) CONNECT or SOCKS5 proxy.
 */
export function dispatcherFor(
  exit: ExitAddressConfig,
  guardPrivate: boolean,
  opts: ExitConnectOptions = {},
): Dispatcher {
  if (!exit.proxyUrl) {
    return new Agent({
      connect: { ...opts.targetTls, ...(guardPrivate ? { lookup: guardedLookup } : {}) },
      connections: 64,
    });
  }
  const proxy = parseProxyUrl(exit.id, exit.proxyUrl);
  return new Agent({ connect: tunnelConnector(proxy, { ...opts, guardPrivate }), connections: 64 });
}

/** Raw sockets through the same exit address, for the WebSocket engines. */
export function socketOpenerFor(
  exit: ExitAddressConfig,
  guardPrivate: boolean,
  opts: ExitConnectOptions = {},
): (t: SocketTarget) => Promise<Socket> {
  const proxy = exit.proxyUrl ? parseProxyUrl(exit.id, exit.proxyUrl) : null;
  return (target) => openSocket(proxy, target, { ...opts, guardPrivate });
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const b = chunk as Buffer;
    total += b.length;
    if (total > maxBytes) {
      body.destroy();
      throw new UpstreamFailure('CONTENT_UNREADABLE', `response body over ${maxBytes} bytes`);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

export class UndiciTransport implements HttpTransport {
  readonly openSocket?: (target: SocketTarget) => Promise<Socket>;

  constructor(
    readonly exitId: string,
    private readonly dispatcher: Dispatcher,
    private readonly guardPrivate: boolean,
    socketOpener?: (target: SocketTarget) => Promise<Socket>,
  ) {
    if (socketOpener) this.openSocket = socketOpener;
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const follow = req.followRedirects ?? true;
    const maxRedirects = req.maxRedirects ?? 10;
    let url = req.url;
    let method = req.method ?? 'GET';
    let body = req.body;
    for (let hop = 0; ; hop++) {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new UpstreamFailure('BAD_PAYLOAD', `unsupported URL scheme ${target.protocol}`, {
          clientMessage: 'payload.url must be an http or https URL.',
        });
      }
      const res = await this.guarded(target.hostname, () =>
        this.dispatcher.request({
          origin: target.origin,
          path: target.pathname + target.search,
          method,
          headers: req.headers ?? {},
          body: body ?? null,
          signal: req.signal ?? null,
        }),
      );
      const headers = flattenHeaders(res.headers);
      const location = headers.location;
      if (follow && location && res.statusCode >= 300 && res.statusCode < 400) {
        await res.body.dump();
        if (hop >= maxRedirects) throw new UpstreamFailure('UPSTREAM_ERROR', `more than ${maxRedirects} redirects`);
        // A Location that does not parse is the upstream's fault, not ours.
        const next = URL.canParse(location, url) ? new URL(location, url) : null;
        if (!next)
          throw new UpstreamFailure('UPSTREAM_ERROR', `redirect to an unparseable Location (HTTP ${res.statusCode})`);
        url = next.toString();
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const buf = await readCapped(res.body, req.maxBytes ?? DEFAULT_MAX_BYTES);
      const finalUrl = url;
      return {
        status: res.statusCode,
        headers,
        url: finalUrl,
        body: buf,
        text: () => decodeBody(headers['content-type'], buf),
        json: () => JSON.parse(buf.toString('utf8')) as unknown,
      };
    }
  }

  /**
   * With the guard on, a private address and a name that does not resolve fail as one error: the client chose the
   * URL, and two outcomes would tell it which private host names exist on our network.
   */
  private async guarded<T>(hostname: string, connect: () => Promise<T>): Promise<T> {
    if (!this.guardPrivate) return connect();
    try {
      assertPublicHost(hostname);
      return await connect();
    } catch (e) {
      if (isRefusedOrUnresolved(e)) throw new RefusedTargetError(e);
      throw e;
    }
  }
}

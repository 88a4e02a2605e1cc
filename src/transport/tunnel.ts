import dns from 'node:dns';
import { once } from 'node:events';
import net, { type Socket } from 'node:net';
import tls, { type ConnectionOptions } from 'node:tls';
import { buildConnector } from 'undici';
import { assertPublicHost, guardedLookup } from '../net/address-guard.js';
import { errorCode } from './handshake-reader.js';
import { httpConnect } from './http-connect.js';
import type { SocketTarget } from './http-transport.js';
import { ProxyFailure, proxyUpstreamFailure, type ProxyEndpoint } from './proxy-endpoint.js';
import { socks5Connect } from './socks5-client.js';
import { coerceError } from '../domain/coerce-error.js';

/** Bound on reaching the proxy and completing its handshake (undici gives a connector no signal). */
const DEFAULT_TUNNEL_TIMEOUT_MS = 10_000;

export interface TunnelOptions {
  /** Refuse targets that resolve to private addresses (client-chosen URLs). */
  guardPrivate: boolean;
  /** Extra TLS options for an https:// proxy (a private CA, for instance). */
  proxyTls?: ConnectionOptions;
  /** Extra TLS options for https targets reached through the tunnel. */
  targetTls?: ConnectionOptions;
  timeoutMs?: number;
}

/**
 * Opens a TCP stream to `target` through the proxy. Everything that goes wrong with the proxy
 * itself becomes UPSTREAM_BLOCKED naming the exit address (so it rests and the retry goes
 * elsewhere); a guarded target that resolves privately is refused before the proxy is asked.
 */
async function openTunnel(
  proxy: ProxyEndpoint,
  target: { host: string; port: number },
  opts: TunnelOptions,
): Promise<Socket> {
  const host = await addressForProxy(proxy, target.host, opts.guardPrivate);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TUNNEL_TIMEOUT_MS;
  try {
    const socket =
      proxy.scheme === 'http' || proxy.scheme === 'https'
        ? await httpConnect(proxy, authority(host, target.port), opts.proxyTls, timeoutMs)
        : await socksTunnel(proxy, { host, port: target.port }, timeoutMs);
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    return socket;
  } catch (e) {
    throw proxyUpstreamFailure(proxy, e instanceof ProxyFailure ? e.message : `connection failed (${errorCode(e)})`);
  }
}

/**
 * What the proxy is asked to connect to. Guarded targets are resolved and checked here, and the
 * checked address is what the proxy gets, so it cannot resolve the name differently (DNS rebinding)
 * and reach a private network for us. Otherwise socks5 resolves locally; http(s) proxies and
 * socks5h receive the name and resolve it where the exit address is.
 */
async function addressForProxy(proxy: ProxyEndpoint, host: string, guardPrivate: boolean): Promise<string> {
  if (guardPrivate) {
    assertPublicHost(host);
    return lookupOne(host, true);
  }
  if (proxy.scheme === 'socks5' && !net.isIP(host)) return lookupOne(host, false);
  return host;
}

function lookupOne(host: string, guarded: boolean): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const done = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[]) =>
      err ? reject(err) : resolve(typeof address === 'string' ? address : (address[0]?.address ?? host));
    if (guarded) guardedLookup(host, {}, done);
    else dns.lookup(host, {}, done);
  });
}

function authority(host: string, port: number): string {
  return `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

async function socksTunnel(
  proxy: ProxyEndpoint,
  target: { host: string; port: number },
  timeoutMs: number,
): Promise<Socket> {
  const socket = net.connect({ host: proxy.host, port: proxy.port });
  const auth = proxy.username === null ? null : { username: proxy.username, password: proxy.password ?? '' };
  const handshake = (async () => {
    await once(socket, 'connect');
    await socks5Connect(socket, auth, target);
  })();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ProxyFailure(`did not complete the SOCKS5 handshake within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  handshake.catch(() => undefined); // the deadline may win the race; the loser's rejection is expected
  try {
    await Promise.race([handshake, deadline]);
    return socket;
  } catch (e) {
    socket.destroy();
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** Wraps a tunnel in TLS for an https (or wss) target, verifying the target's name. */
async function startTls(
  socket: Socket,
  host: string,
  targetTls: ConnectionOptions | undefined,
): Promise<tls.TLSSocket> {
  const secure = tls.connect({ ...targetTls, socket, ...(net.isIP(host) ? {} : { servername: host }) });
  try {
    await once(secure, 'secureConnect');
    return secure;
  } catch (e) {
    secure.destroy();
    socket.destroy();
    throw e;
  }
}

/** An undici `connect` function that reaches every origin through the proxy. */
export function tunnelConnector(proxy: ProxyEndpoint, opts: TunnelOptions): buildConnector.connector {
  // undici's own connector does the TLS step, so https origins keep its session cache and checks.
  const upgrade = buildConnector({ ...opts.targetTls });
  return (o, callback) => {
    const port = Number(o.port) || (o.protocol === 'https:' ? 443 : 80);
    openTunnel(proxy, { host: o.hostname, port }, opts).then(
      (socket) => (o.protocol === 'https:' ? upgrade({ ...o, httpSocket: socket }, callback) : callback(null, socket)),
      (e: unknown) => callback(coerceError(e), null),
    );
  };
}

/** A raw socket to `target` through the proxy, or directly when `proxy` is null (WebSockets use this). */
export async function openSocket(
  proxy: ProxyEndpoint | null,
  target: SocketTarget,
  opts: TunnelOptions,
): Promise<Socket> {
  let socket: Socket;
  if (proxy) {
    socket = await openTunnel(proxy, target, opts);
  } else {
    if (opts.guardPrivate) assertPublicHost(target.host);
    socket = net.connect({
      host: target.host,
      port: target.port,
      ...(opts.guardPrivate ? { lookup: guardedLookup } : {}),
    });
    try {
      await once(socket, 'connect');
    } catch (e) {
      socket.destroy();
      throw e;
    }
  }
  return target.tls ? startTls(socket, target.host, opts.targetTls) : socket;
}

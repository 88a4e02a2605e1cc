import { UpstreamFailure } from '../domain/engine-errors.js';

type ProxyScheme = 'http' | 'https' | 'socks5' | 'socks5h';

/** An exit address's proxy, parsed once. The credentials stay here: nothing prints this object. */
export interface ProxyEndpoint {
  exitId: string;
  scheme: ProxyScheme;
  host: string;
  port: number;
  /** Percent-decoded userinfo; null when the URL has none. */
  username: string | null;
  password: string | null;
}

const DEFAULT_PORTS: Readonly<Record<ProxyScheme, number>> = Object.freeze({
  http: 80,
  https: 443,
  socks5: 1080,
  socks5h: 1080,
});

/**
 * A failure of the proxy itself (unreachable, refused credentials, refused tunnel). Its message
 * says what went wrong and never carries the credentials.
 */
export class ProxyFailure extends Error {
  override name = 'ProxyFailure';
}

/** Parses `proxyUrl` of an exit address. A malformed URL names the exit, never the URL (it may hold a password). */
export function parseProxyUrl(exitId: string, proxyUrl: string): ProxyEndpoint {
  let u: URL;
  try {
    u = new URL(proxyUrl);
  } catch {
    throw proxyUnusable(exitId, 'URL is malformed');
  }
  const scheme = u.protocol.slice(0, -1);
  if (!isScheme(scheme)) throw proxyUnusable(exitId, `scheme ${scheme} is not supported`);
  if (!u.hostname) throw proxyUnusable(exitId, 'URL has no host');
  return {
    exitId,
    scheme,
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : DEFAULT_PORTS[scheme],
    username: u.username ? decodeUserinfo(u.username) : null,
    password: u.username || u.password ? decodeUserinfo(u.password) : null,
  };
}

/** `scheme://host:port`, for messages. */
function describeProxy(p: ProxyEndpoint): string {
  const host = p.host.includes(':') ? `[${p.host}]` : p.host;
  return `${p.scheme}://${host}:${p.port}`;
}

/**
 * The failure an attempt reports when its exit address's proxy fails: UPSTREAM_BLOCKED, so the
 * exit address rests and the retry goes to another one.
 */
export function proxyUpstreamFailure(p: ProxyEndpoint, what: string): UpstreamFailure {
  return new UpstreamFailure('UPSTREAM_BLOCKED', `exit address ${p.exitId}: proxy ${describeProxy(p)} ${what}`);
}

function proxyUnusable(exitId: string, what: string): UpstreamFailure {
  return new UpstreamFailure('UPSTREAM_BLOCKED', `exit address ${exitId}: proxy ${what}`);
}

function isScheme(s: string): s is ProxyScheme {
  return Object.hasOwn(DEFAULT_PORTS, s);
}

function decodeUserinfo(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

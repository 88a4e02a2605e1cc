import http from 'node:http';
import https from 'node:https';
import net, { type Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { errorCode } from './handshake-reader.js';
import { ProxyFailure, type ProxyEndpoint } from './proxy-endpoint.js';

/**
 * Opens a tunnel through an HTTP or HTTPS proxy with `CONNECT authority` (RFC 9110 9.3.6). Node's
 * HTTP client parses the proxy's answer; the socket it hands over carries the target's bytes.
 * Basic credentials come from the proxy URL's userinfo (already percent-decoded).
 */
export function httpConnect(
  proxy: ProxyEndpoint,
  authority: string,
  proxyTls: ConnectionOptions | undefined,
  timeoutMs: number,
): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const headers: Record<string, string> = { host: authority };
    if (proxy.username !== null) {
      headers['proxy-authorization'] =
        `Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`, 'utf8').toString('base64')}`;
    }
    const options: https.RequestOptions = {
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
    };
    const req =
      proxy.scheme === 'https'
        ? https.request({ ...proxyTls, ...options, ...(net.isIP(proxy.host) ? {} : { servername: proxy.host }) })
        : http.request(options);
    let done = false;
    const finish = (outcome: { socket: Socket } | { error: ProxyFailure }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if ('socket' in outcome) resolve(outcome.socket);
      else reject(outcome.error);
    };
    const timer = setTimeout(() => {
      finish({ error: new ProxyFailure(`did not open the tunnel within ${timeoutMs} ms`) });
      req.destroy();
    }, timeoutMs);
    req.once('connect', (res, socket, head) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300 || done) {
        socket.destroy();
        finish({ error: refusal(proxy, authority, status) });
        return;
      }
      if (head.length > 0) socket.unshift(head);
      finish({ socket });
    });
    req.on('error', (e) => finish({ error: new ProxyFailure(`connection failed (${errorCode(e)})`) }));
    req.end();
  });
}

function refusal(proxy: ProxyEndpoint, authority: string, status: number): ProxyFailure {
  if (status === 407) {
    return new ProxyFailure(
      proxy.username === null
        ? 'requires authentication (407) and the exit address has no credentials'
        : 'rejected the credentials (407 Proxy Authentication Required)',
    );
  }
  return new ProxyFailure(`refused the tunnel to ${authority} (HTTP ${status})`);
}

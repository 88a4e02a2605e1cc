/**
 * The narrow interface engines use to reach an upstream over HTTP. The implementation sends the
 * request through the exit address taken for the attempt; the sandbox and the real upstreams
 * differ only in the base URLs of the engine config.
 */
import type { Socket } from 'node:net';

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'HEAD';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Follow redirects (default true, at most `maxRedirects`). */
  followRedirects?: boolean;
  maxRedirects?: number;
  /** Refuse bodies larger than this many bytes (default 10 MiB). */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** URL after redirects. */
  url: string;
  body: Buffer;
  /** Body decoded as text using the Content-Type charset (or the HTML meta charset), UTF-8 by default. */
  text(): string;
  json(): unknown;
}

/** A raw connection for a protocol other than plain HTTP requests (a WebSocket). */
export interface SocketTarget {
  host: string;
  port: number;
  /** Wrap the connection in TLS, checking the certificate against `host`. */
  tls: boolean;
}

export interface HttpTransport {
  /** Identifier of the exit address in use (for logs and pool health). */
  readonly exitId: string;
  request(req: HttpRequest): Promise<HttpResponse>;
  /**
   * Opens a connection to `target` through the same exit address (its proxy, when it has one).
   * Optional: transports that cannot do this leave it out, and callers connect directly.
   */
  openSocket?(target: SocketTarget): Promise<Socket>;
}

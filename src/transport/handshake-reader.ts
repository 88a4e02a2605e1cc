import type { Socket } from 'node:net';
import { ProxyFailure } from './proxy-endpoint.js';

/**
 * Reads exact byte counts from a socket during a proxy handshake. It pulls with 'readable' (never
 * switching the socket to flowing mode), and `release()` puts back any bytes that arrived after the
 * handshake, so the protocol that follows (HTTP, TLS, WebSocket) loses nothing.
 */
export class HandshakeReader {
  private buffered = Buffer.alloc(0);
  private pending: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;

  constructor(private readonly socket: Socket) {
    socket.on('readable', this.onReadable);
    socket.on('end', this.onEnd);
    socket.on('close', this.onEnd);
    socket.on('error', this.onError);
  }

  read(n: number): Promise<Buffer> {
    if (this.pending) return Promise.reject(new Error('handshake reader: overlapping reads'));
    return new Promise<Buffer>((resolve, reject) => {
      this.pending = { n, resolve, reject };
      this.settle();
    });
  }

  /** Stops reading and returns unread bytes to the socket. */
  release(): void {
    this.socket.off('readable', this.onReadable);
    this.socket.off('end', this.onEnd);
    this.socket.off('close', this.onEnd);
    this.socket.off('error', this.onError);
    if (this.buffered.length > 0) this.socket.unshift(this.buffered);
    this.buffered = Buffer.alloc(0);
  }

  private readonly onReadable = (): void => {
    for (let chunk: unknown = this.socket.read(); chunk !== null; chunk = this.socket.read()) {
      this.buffered = Buffer.concat([this.buffered, chunk as Buffer]);
    }
    this.settle();
  };

  private readonly onEnd = (): void => this.fail(new ProxyFailure('closed the connection during the handshake'));

  private readonly onError = (e: Error): void =>
    this.fail(new ProxyFailure(`connection failed during the handshake (${errorCode(e)})`));

  private fail(e: Error): void {
    this.failure ??= e;
    this.settle();
  }

  private settle(): void {
    const p = this.pending;
    if (!p) return;
    if (this.buffered.length >= p.n) {
      this.pending = null;
      const out = this.buffered.subarray(0, p.n);
      this.buffered = this.buffered.subarray(p.n);
      p.resolve(out);
    } else if (this.failure) {
      this.pending = null;
      p.reject(this.failure);
    }
  }
}

/** The errno-style code of a socket error (ECONNREFUSED...), or its class name. */
export function errorCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : e instanceof Error ? e.name : 'unknown error';
}

import net, { type AddressInfo, type Socket } from 'node:net';
import { HandshakeReader } from '../handshake-reader.js';
import type { SocketTarget } from '../http-transport.js';

/** Opens the connection a page asked for, or throws when it is refused (private address, no such name). */
export type SocketOpener = (target: SocketTarget) => Promise<Socket>;

/**
 * The private-address guard of the browser (docs/security.md#browser-isolation): a SOCKS5 relay on
 * loopback that a guarded browser context uses as its only proxy (with Chromium's implicit loopback
 * bypass removed), so every connection the page makes — the navigation, each redirect hop,
 * subresources, fetches, WebSockets — arrives here by host name and port. The opener resolves the
 * name, refuses it when any address is private, loopback or link-local, and connects to the address
 * it checked (directly or through the exit's proxy), so a name cannot resolve differently between
 * the check and the connection. A refused target and a name that does not resolve get the same
 * SOCKS reply: a page cannot probe which private names exist. Checking by connection rather than by
 * request (Playwright's `route`) also covers redirects, which `route` does not see.
 */
export class GuardRelay {
  private readonly open = new Set<Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(opener: SocketOpener): Promise<GuardRelay> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const relay = new GuardRelay(server, (server.address() as AddressInfo).port);
    server.on('connection', (client) => relay.serve(client, opener));
    return relay;
  }

  /** The proxy server setting of a browser context. */
  get proxyServer(): string {
    return `socks5://127.0.0.1:${this.port}`;
  }

  /** Stops listening and ends every connection still relayed (the page's context is closed). */
  async close(): Promise<void> {
    for (const s of this.open) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(s: Socket): void {
    this.open.add(s);
    s.once('close', () => this.open.delete(s));
    s.on('error', () => s.destroy());
  }

  private async serve(client: Socket, opener: SocketOpener): Promise<void> {
    this.track(client);
    const reader = new HandshakeReader(client);
    let target: SocketTarget;
    try {
      target = await readConnectRequest(client, reader);
    } catch {
      client.destroy();
      return;
    }
    let upstream: Socket;
    try {
      upstream = await opener(target);
    } catch {
      // One answer for "refused" and "does not resolve" (and for an exit proxy that failed).
      client.end(reply(REFUSED));
      return;
    }
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    this.track(upstream);
    reader.release();
    client.write(reply(SUCCEEDED));
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  }
}

const VERSION = 5;
const NO_AUTH = 0;
const NO_ACCEPTABLE_METHOD = 0xff;
const CONNECT = 1;
const SUCCEEDED = 0;
/** "Host unreachable" (RFC 1928 §6): the one reply for every target the relay does not connect. */
const REFUSED = 4;
const COMMAND_NOT_SUPPORTED = 7;

function reply(code: number): Buffer {
  return Buffer.from([VERSION, code, 0, 1, 0, 0, 0, 0, 0, 0]);
}

/** The RFC 1928 greeting (no authentication: the relay listens on loopback for one context) and CONNECT request. */
async function readConnectRequest(client: Socket, reader: HandshakeReader): Promise<SocketTarget> {
  const [version, methodCount] = await reader.read(2);
  if (version !== VERSION || !methodCount) throw new Error('not SOCKS5');
  const methods = await reader.read(methodCount);
  if (!methods.includes(NO_AUTH)) {
    client.end(Buffer.from([VERSION, NO_ACCEPTABLE_METHOD]));
    throw new Error('no acceptable method');
  }
  client.write(Buffer.from([VERSION, NO_AUTH]));
  const [v, command, , addressType] = await reader.read(4);
  if (v !== VERSION) throw new Error('not SOCKS5');
  let host: string;
  if (addressType === 1) host = [...(await reader.read(4))].join('.');
  else if (addressType === 3) {
    const [length = 0] = await reader.read(1);
    host = (await reader.read(length)).toString('latin1');
  } else if (addressType === 4) {
    const b = await reader.read(16);
    host = Array.from({ length: 8 }, (_, i) => b.readUInt16BE(i * 2).toString(16)).join(':');
  } else throw new Error('unknown address type');
  const port = (await reader.read(2)).readUInt16BE(0);
  if (command !== CONNECT) {
    client.end(reply(COMMAND_NOT_SUPPORTED));
    throw new Error('only CONNECT');
  }
  return { host, port, tls: false };
}

import net, { type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { HandshakeReader } from './handshake-reader.js';
import { ProxyFailure } from './proxy-endpoint.js';

/**
 * The client half of SOCKS5 (RFC 1928) with username/password authentication (RFC 1929): just the
 * CONNECT command, run over a socket already connected to the proxy. Written here rather than using
 * undici's Socks5ProxyAgent, which is experimental, always sends host names (no local resolution,
 * so the private-address guard could not pin the address it checked) and has no socks5h scheme.
 */

const VERSION = 0x05;
const AUTH_VERSION = 0x01;
const METHOD_NONE = 0x00;
const METHOD_USER_PASS = 0x02;
const METHOD_NO_ACCEPTABLE = 0xff;
const CMD_CONNECT = 0x01;
const ATYP_IPV4 = 0x01;
const ATYP_DOMAIN = 0x03;
const ATYP_IPV6 = 0x04;

const REPLY_MEANINGS: Readonly<Record<number, string>> = Object.freeze({
  1: 'general SOCKS server failure',
  2: 'connection not allowed by ruleset',
  3: 'network unreachable',
  4: 'host unreachable',
  5: 'connection refused',
  6: 'TTL expired',
  7: 'command not supported',
  8: 'address type not supported',
});

export interface SocksCredentials {
  username: string;
  password: string;
}

/** `host` is an IP literal (sent as an address) or a name (sent for the proxy to resolve). */
export interface SocksTarget {
  host: string;
  port: number;
}

/** Negotiates a CONNECT to `target`; on return the socket carries the target's bytes. */
export async function socks5Connect(socket: Socket, auth: SocksCredentials | null, target: SocksTarget): Promise<void> {
  const reader = new HandshakeReader(socket);
  try {
    const methods = auth ? [METHOD_NONE, METHOD_USER_PASS] : [METHOD_NONE];
    socket.write(Buffer.from([VERSION, methods.length, ...methods]));
    const choice = await reader.read(2);
    if (choice.readUInt8(0) !== VERSION) throw new ProxyFailure('is not a SOCKS5 proxy');
    const method = choice.readUInt8(1);
    if (method === METHOD_USER_PASS && auth) {
      await authenticate(socket, reader, auth);
    } else if (method === METHOD_NO_ACCEPTABLE) {
      throw new ProxyFailure(
        auth
          ? 'accepts none of our authentication methods'
          : 'requires authentication and the exit address has no credentials',
      );
    } else if (method !== METHOD_NONE) {
      throw new ProxyFailure(`chose authentication method ${method}, which we did not offer`);
    }
    socket.write(connectRequest(target));
    await readReply(reader, target);
  } finally {
    reader.release();
  }
}

async function authenticate(socket: Socket, reader: HandshakeReader, auth: SocksCredentials): Promise<void> {
  const user = Buffer.from(auth.username, 'utf8');
  const pass = Buffer.from(auth.password, 'utf8');
  if (user.length > 255 || pass.length > 255)
    throw new ProxyFailure('credentials are longer than SOCKS5 allows (255 bytes each)');
  socket.write(Buffer.concat([Buffer.from([AUTH_VERSION, user.length]), user, Buffer.from([pass.length]), pass]));
  const status = await reader.read(2);
  if (status.readUInt8(1) !== 0x00) throw new ProxyFailure('rejected the credentials (SOCKS5 username/password)');
}

function connectRequest(target: SocksTarget): Buffer {
  let address: Buffer;
  if (net.isIP(target.host)) {
    const bytes = ipaddr.parse(target.host).toByteArray();
    address = Buffer.from([bytes.length === 4 ? ATYP_IPV4 : ATYP_IPV6, ...bytes]);
  } else {
    const name = Buffer.from(target.host, 'utf8');
    if (name.length > 255) throw new ProxyFailure('cannot carry a host name over 255 bytes');
    address = Buffer.concat([Buffer.from([ATYP_DOMAIN, name.length]), name]);
  }
  const port = Buffer.alloc(2);
  port.writeUInt16BE(target.port);
  return Buffer.concat([Buffer.from([VERSION, CMD_CONNECT, 0x00]), address, port]);
}

/** Reads the reply (VER REP RSV ATYP BND.ADDR BND.PORT); anything but success is a refusal. */
async function readReply(reader: HandshakeReader, target: SocksTarget): Promise<void> {
  const head = await reader.read(4);
  if (head.readUInt8(0) !== VERSION) throw new ProxyFailure('sent a malformed SOCKS5 reply');
  const rep = head.readUInt8(1);
  if (rep !== 0x00) {
    throw new ProxyFailure(
      `refused the connection to ${target.host}:${target.port} (${REPLY_MEANINGS[rep] ?? `reply ${rep}`})`,
    );
  }
  const atyp = head.readUInt8(3);
  let addressLength: number;
  if (atyp === ATYP_IPV4) addressLength = 4;
  else if (atyp === ATYP_IPV6) addressLength = 16;
  else if (atyp === ATYP_DOMAIN) addressLength = (await reader.read(1)).readUInt8(0);
  else throw new ProxyFailure('sent a malformed SOCKS5 reply');
  await reader.read(addressLength + 2);
}

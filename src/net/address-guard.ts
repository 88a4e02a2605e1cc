import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * SSRF protection for webhook and page-reader targets: the check runs on the address the host name
 * resolves to, at connect time, so a public name pointing at 127.0.0.1 is refused too.
 */
function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() !== 'unicast';
}

class PrivateAddressError extends Error {
  readonly code = 'PRIVATE_ADDRESS';
  constructor(host: string, address: string) {
    super(`target ${host} resolves to a private, loopback or link-local address (${address})`);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net.connect / undici that refuses private addresses after resolution. */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new PrivateAddressError(hostname, bad.address) as unknown as NodeJS.ErrnoException, []);
    if (options.all) return callback(null, list);
    const first = list[0];
    if (!first) return callback(new Error(`no address for ${hostname}`) as NodeJS.ErrnoException, []);
    callback(null, first.address, first.family);
  });
}

/** Checks a literal IP host up front (undici skips lookup for IP literals). */
export function assertPublicHost(hostname: string): void {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(h) && isPrivateAddress(h)) throw new PrivateAddressError(hostname, h);
  if (h === 'localhost' || h.endsWith('.localhost')) throw new PrivateAddressError(hostname, '127.0.0.1');
}

/**
 * A refused private address or a name that does not resolve (ENOTFOUND), on the error or its causes: a guarded
 * client-chosen target that cannot be reached for either reason.
 */
export function isRefusedOrUnresolved(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x instanceof Error && depth < 4; x = x.cause, depth++) {
    const code = (x as { code?: unknown }).code;
    if (code === 'PRIVATE_ADDRESS' || code === 'ENOTFOUND') return true;
  }
  return false;
}

/**
 * The one error of a guarded target that is private or does not resolve. Its message names neither the host
 * nor an address, so nothing built from it tells a client whether a private name exists; the cause keeps the
 * detail for the operator's log.
 */
export class RefusedTargetError extends Error {
  readonly code = 'PRIVATE_ADDRESS';
  constructor(cause: unknown) {
    super('target is not a public address that resolves', { cause });
    this.name = 'RefusedTargetError';
  }
}

import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * SSRF protection for webhook and page-reader targets: the check runs on the address the host name
 * resolves to, at connect time, so a public name pointing at 127.0.0.1 is refused too.
 */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() !== 'unicast';
}

export class PrivateAddressError extends Error {
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

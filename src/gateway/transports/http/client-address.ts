/**
 * G5 — the client address a per-address limit (`initializePerMinute`) keys on and the logs name:
 * the TCP peer, or, when that peer is a proxy the operator trusts (`trustProxy`), the address the
 * proxy says it forwarded for (`X-Forwarded-For`, read right to left by proxy-addr: the first
 * address that is not itself a trusted proxy). A client cannot choose its key by sending the
 * header: from an untrusted peer it is ignored.
 */
import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
import proxyaddr from 'proxy-addr';
import { TrustProxyError } from '../../errors.js';

export type AddressOf = (req: IncomingMessage) => string;

/**
 * How to read a request's client address. `trusted`: proxy addresses or CIDR ranges, or
 * proxy-addr's names `loopback`, `linklocal`, `uniquelocal`; empty: the TCP peer, always.
 */
export function clientAddress(trusted: readonly string[] = []): AddressOf {
  if (trusted.length === 0) return (req) => req.socket.remoteAddress ?? 'unknown';
  let trust: (address: string, hop: number) => boolean;
  try {
    trust = proxyaddr.compile([...trusted]);
  } catch (error) {
    throw new TrustProxyError(trusted, error);
  }
  return (req) => proxyaddr(req, trust);
}

/**
 * The key a per-address limit counts under. One IPv6 host holds a whole /64 (it can pick a new
 * address per request), so IPv6 counts by its /64. IPv4 counts per address (the 127.0.0.0/8
 * addresses too: tests and local tools use them as distinct clients).
 */
export function rateKey(address: string): string {
  const bare = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (!isIPv6(bare)) return bare;
  return `${expandIPv6(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of an IPv6 address (zone dropped, `::` filled). */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : Array(Math.max(0, 8 - left.length - right.length)).fill('0');
  return [...left, ...fill, ...right].map((h) => h.toLowerCase().replace(/^0+(?=.)/, ''));
}

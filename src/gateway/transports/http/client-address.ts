/**
 * G5 — the client address a per-address limit (`initializePerMinute`) keys on and the logs name:
 * the TCP peer, or, when that peer is a proxy the operator trusts (`trustProxy`), the address the
 * proxy says it forwarded for (`X-Forwarded-For`, read right to left by proxy-addr: the first
 * address that is not itself a trusted proxy). A client cannot choose its key by sending the
 * header: from an untrusted peer it is ignored.
 */
import type { IncomingMessage } from 'node:http';
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

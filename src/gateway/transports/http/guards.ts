/**
 * G3/G5 — who may talk to the HTTP gateway: browser Origins (loopback or listed), the Host header
 * (DNS-rebinding defence, by the MCP SDK's own validator), the bearer token, and which bind
 * addresses count as loopback (binding elsewhere needs a token).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv4 } from 'node:net';
import { hostHeaderValidation } from '@modelcontextprotocol/node';

/** Exact loopback host names (URL `hostname` form: IPv6 in brackets). No prefixes: `127.0.0.1.evil.com` is not loopback. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** No Origin (non-browser clients) is fine; a browser origin must be loopback or listed. */
export function isOriginAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const { hostname, protocol } = new URL(origin);
    return (
      (protocol === 'http:' || protocol === 'https:') &&
      (LOOPBACK_HOSTNAMES.includes(hostname) || hostname.endsWith('.localhost'))
    );
  } catch {
    return false;
  }
}

/** A bind address on this machine only: `localhost`, `::1`, or an IPv4 address in 127.0.0.0/8. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || (isIPv4(bare) && bare.startsWith('127.'));
}

/**
 * The `Host` check, by the MCP SDK's `hostHeaderValidation` (exact hostnames, any port): loopback
 * names, the bound address, and the names listed. It is Express-shaped; this adapts it to bare
 * `node:http` (it calls `res.status(code).json(body)` to refuse, `next()` to accept).
 */
export function hostChecker(
  boundHost: string,
  allowed: readonly string[],
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const bound = boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
  // The SDK's node guard answers a refused Host with 403 itself.
  return hostHeaderValidation([...new Set([...LOOPBACK_HOSTNAMES, bound, ...allowed])]);
}

/** Constant-time bearer check: both sides hashed to equal length first. */
export function bearerChecker(token: string): (header: string | undefined) => boolean {
  const expected = createHash('sha256').update(token).digest();
  return (header) => {
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    const given = createHash('sha256')
      .update(match?.[1] ?? '')
      .digest();
    return timingSafeEqual(expected, given) && match !== null;
  };
}

/**
 * `bearerChecker` over a token that may change (a profile's, on reload): a function is read at
 * each request, its checker remade only when the value changes; undefined lets every request in.
 */
export function liveBearerChecker(token: string | (() => string | undefined)): (header: string | undefined) => boolean {
  if (typeof token === 'string') return bearerChecker(token);
  let current: { token: string; check: (header: string | undefined) => boolean } | undefined;
  return (header) => {
    const now = token();
    if (now === undefined) return true;
    if (current?.token !== now) current = { token: now, check: bearerChecker(now) };
    return current.check(header);
  };
}

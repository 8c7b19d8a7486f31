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

/**
 * The bearer token(s) an endpoint accepts: one, one per client (each an identity of its own, see
 * sessions/identity.ts), or a function read at each request (a profile's, which a reload may
 * change; undefined then: no token asked).
 */
export type GatewayToken = string | readonly string[] | (() => string | readonly string[] | undefined);

/** The accepted tokens as a list (empty: none asked). */
export function tokenList(token: GatewayToken | undefined): readonly string[] {
  const value = typeof token === 'function' ? token() : token;
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}

/**
 * Constant-time bearer match: the header's token hashed to equal length and compared with every
 * accepted one (all of them, whatever matched); the token that matched, or undefined.
 */
export function bearerMatcher(tokens: readonly string[]): (header: string | undefined) => string | undefined {
  const expected = tokens.map((token) => ({ token, hash: createHash('sha256').update(token).digest() }));
  return (header) => {
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    const given = createHash('sha256')
      .update(match?.[1] ?? '')
      .digest();
    let found: string | undefined;
    for (const { token, hash } of expected) if (timingSafeEqual(hash, given) && match !== null) found ??= token;
    return found;
  };
}

/** Constant-time bearer check against the accepted token(s). */
export function bearerChecker(token: string | readonly string[]): (header: string | undefined) => boolean {
  const match = bearerMatcher(typeof token === 'string' ? [token] : token);
  return (header) => match(header) !== undefined;
}

/**
 * `bearerMatcher` over tokens that may change (a profile's, on reload): a function is read at each
 * request, its matcher remade only when the value changes. `checked` false: no token is asked.
 */
export function liveBearerMatcher(
  token: GatewayToken,
): (header: string | undefined) => { readonly checked: boolean; readonly token?: string } {
  let current: { key: string; match: (header: string | undefined) => string | undefined } | undefined;
  return (header) => {
    const tokens = tokenList(token);
    if (tokens.length === 0) return { checked: false };
    const key = tokens.join('\n');
    if (current?.key !== key) current = { key, match: bearerMatcher(tokens) };
    const matched = current.match(header);
    return matched === undefined ? { checked: true } : { checked: true, token: matched };
  };
}

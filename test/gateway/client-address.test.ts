import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { TrustProxyError } from '../../src/gateway/errors.js';
import { clientAddress, rateKey } from '../../src/gateway/transports/http/client-address.js';

/** A request as node:http gives it, from `peer`, with these headers. */
function request(peer: string, headers: Record<string, string> = {}): IncomingMessage {
  return {
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers,
  } as unknown as IncomingMessage;
}

describe('G5: the client address the initialize limit keys on', () => {
  it('G5: without trusted proxies it is the TCP peer; X-Forwarded-For is ignored', () => {
    const addressOf = clientAddress();
    expect(addressOf(request('203.0.113.9', { 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.9');
  });

  it('G5: from a trusted proxy it is the forwarded client; from any other peer the header is ignored', () => {
    const addressOf = clientAddress(['10.0.0.0/8']);
    expect(addressOf(request('10.0.0.5', { 'x-forwarded-for': '198.51.100.1' }))).toBe('198.51.100.1');
    expect(addressOf(request('203.0.113.9', { 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.9');
  });

  it('G5: a client cannot hide behind addresses it prepends: the chain is read from the proxy back', () => {
    const addressOf = clientAddress(['10.0.0.0/8']);
    // The client sent "X-Forwarded-For: 192.0.2.1"; the proxy appended the address it saw.
    expect(addressOf(request('10.0.0.5', { 'x-forwarded-for': '192.0.2.1, 198.51.100.1' }))).toBe('198.51.100.1');
  });

  it('G5: an entry that is no address, range or name is refused with one clear error', () => {
    expect(() => clientAddress(['10.0.0.0/8', 'not-an-address'])).toThrow(TrustProxyError);
    expect(() => clientAddress(['not-an-address'])).toThrow(
      /--trust-proxy not-an-address: .*loopback, linklocal, uniquelocal/,
    );
  });
});

describe('G5: the key the initialize limit counts under', () => {
  it('IPv6 counts by /64, IPv4 per address', () => {
    expect(rateKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateKey('2001:db8:1:2:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(rateKey('2001:0db8:0001:0003::9')).toBe('2001:db8:1:3::/64');
    expect(rateKey('::1')).toBe('0:0:0:0::/64');
    expect(rateKey('192.0.2.7')).toBe('192.0.2.7');
    expect(rateKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });
});

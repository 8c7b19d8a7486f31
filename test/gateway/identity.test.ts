/**
 * C15/G11 — who a client is (sessions/identity.ts): what a caller cannot make up per request counts
 * for learning; shares fall back to the address. And the bearer match over one token per client.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveTokens } from '../../src/cli/commands/serve-flags.js';
import { clientIdentity, soleIdentity, STDIO_IDENTITY } from '../../src/gateway/sessions/identity.js';
import { bearerMatcher, liveBearerMatcher, tokenList } from '../../src/gateway/transports/http/guards.js';
import { connectClient } from '../fixtures/clients.js';
import { httpGateway } from '../fixtures/http-gateway.js';
import { fixtureServer } from '../fixtures/servers/index.js';

describe('C15: client identities', () => {
  it('C15: a checked token is an identity (a digest, scoped by profile); without one nothing is, and the address names the share', () => {
    const alice = clientIdentity({ transport: 'http', token: 'token-alice', address: '127.0.0.1' });
    const bob = clientIdentity({ transport: 'http', token: 'token-bob', address: '127.0.0.1' });
    expect(alice.proven).toMatch(/^token:/);
    expect(alice.proven).not.toContain('token-alice');
    expect(alice.proven).not.toBe(bob.proven);
    expect(alice.key).not.toBe(bob.key);
    // The same token from another machine: the same learning identity, its own share.
    const elsewhere = clientIdentity({ transport: 'http', token: 'token-alice', address: '10.0.0.7' });
    expect(elsewhere.proven).toBe(alice.proven);
    expect(elsewhere.key).not.toBe(alice.key);
    // A profile's endpoint: another identity for the same token.
    expect(clientIdentity({ transport: 'http', token: 'token-alice', profile: 'eng' }).proven).not.toBe(alice.proven);
    // No token checked: whatever the request says, no learning identity; the address is the share.
    const open = clientIdentity({ transport: 'http', address: '127.0.0.1' });
    expect(open).toEqual({ key: 'address@127.0.0.1' });
    expect(clientIdentity({ transport: 'stdio' })).toBe(STDIO_IDENTITY);
    expect(clientIdentity({ transport: 'http', subject: 'user-1' }).proven).toMatch(/^oauth:/);
  });

  it('C15: one identity alone reaches stdio, or an endpoint with one token; none alone one with none or several', () => {
    expect(soleIdentity({ transport: 'stdio' })).toBe('stdio');
    const only = soleIdentity({ transport: 'http', tokens: ['t'] });
    expect(only).toBe(clientIdentity({ transport: 'http', token: 't' }).proven);
    expect(soleIdentity({ transport: 'http', tokens: [] })).toBeUndefined();
    expect(soleIdentity({ transport: 'http', tokens: ['a', 'b'] })).toBeUndefined();
  });

  it('G3/C15: the bearer match says which of several tokens a request holds; a made-up one matches none', () => {
    const match = bearerMatcher(['token-alice', 'token-bob']);
    expect(match('Bearer token-bob')).toBe('token-bob');
    expect(match('bearer token-alice')).toBe('token-alice');
    expect(match('Bearer made-up')).toBeUndefined();
    expect(match(undefined)).toBeUndefined();
    let current: string | undefined = 'first';
    const live = liveBearerMatcher(() => current);
    expect(live('Bearer first')).toEqual({ checked: true, token: 'first' });
    current = undefined;
    expect(live('Bearer anything')).toEqual({ checked: false });
    expect(tokenList(['a', 'b'])).toEqual(['a', 'b']);
  });

  it('G5/C15: serve --token-file: every non-empty line is one client’s token (the first is the operator’s)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-tokens-'));
    const several = join(dir, 'tokens');
    writeFileSync(several, 'operator\n\nclient-a\r\nclient-b\nclient-a\n');
    expect(await resolveTokens({ tokenFile: several })).toEqual(['operator', 'client-a', 'client-b']);
    const one = join(dir, 'token');
    writeFileSync(one, 'only\n');
    expect(await resolveTokens({ tokenFile: one })).toBe('only');
    expect(await resolveTokens({}, { TOOLSEARCH_TOKEN: 'env' })).toBe('env');
  });

  it('G3: an endpoint whose token function asks none (a profile without one) lets requests in; one that asks checks them', async () => {
    let token: string | undefined;
    const gateway = await httpGateway({ fx: fixtureServer('fx') }, {}, { token: () => token });
    try {
      const open = await connectClient(gateway.open());
      expect(await open.toolNames()).toContain('mcp__fx__ping');
      await open.close();
      token = 'now-one';
      await expect(connectClient(gateway.open())).rejects.toThrow(/bearer token/);
      const holder = await connectClient(gateway.open({ authorization: 'Bearer now-one' }));
      expect(await holder.toolNames()).toContain('mcp__fx__ping');
      await holder.close();
    } finally {
      await gateway.close();
    }
  });
});

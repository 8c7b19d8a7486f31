import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { httpGateway, type HttpGatewayFixture } from '../fixtures/http-gateway.js';
import { waitFor } from '../fixtures/wait.js';
import { capableClient, type CapableClient } from '../gateway/fidelity-clients.js';
import { stdioGateway } from '../fixtures/stdio-gateway.js';

const text = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const peer = { command: process.execPath, args: [PEER_SERVER] };

/**
 * G5 — the isolation rule over real Streamable HTTP: in a gateway serving more than one session,
 * nothing a session causes or sends reaches another (sampling, elicitation, logs, roots).
 */
describe('G5 isolation: two users of one HTTP gateway and a shared upstream', () => {
  let gateway: HttpGatewayFixture;
  let alice: CapableClient;
  let bob: CapableClient;
  const open = () => gateway.open();
  const lastSample = async () =>
    waitFor(async () => {
      const outcome = (await alice.call('mcp__peer__last_sample')).text;
      return outcome === 'none' ? undefined : outcome;
    }, 'the late sampling to finish');

  beforeAll(async () => {
    // One server per case: an ended call claims its server's messages for the grace period.
    gateway = await httpGateway({ peer: { ...peer, roots: ['/srv/operator'] }, logs: peer, levels: peer });
    [alice, bob] = await Promise.all([capableClient('Alice', open()), capableClient('Bob', open())]);
  }, 30_000);
  afterAll(async () => {
    await Promise.allSettled([alice?.close(), bob?.close()]);
    await gateway?.close();
  });

  it("G5: sampling after Bob's call ended, while Alice's call is in flight, is refused — Alice never sees Bob's text", async () => {
    expect((await bob.call('mcp__peer__late_sample', { secret: 'private text of Bob', delayMs: 300 })).text).toBe(
      'later',
    );
    // Alice's call is in flight when (or, on a loaded machine, just after) the server samples; Bob's
    // ended call still claims it. Either way it is refused: two sessions claim it, or an ended call.
    expect((await alice.call('mcp__peer__hold', { ms: 1_000 })).text).toBe('held');
    expect(await lastSample()).toMatch(/^error: .*(cannot route|refused) sampling\/createMessage from "peer"/);
    expect(alice.sampled).toEqual([]);
    expect(bob.sampled).toEqual([]);
  });

  it('G5: sampling after the causing session closed is refused, even with one session left', async () => {
    const carol = await capableClient('Carol', open());
    await carol.call('mcp__peer__late_sample', { secret: 'private text of Carol', delayMs: 200 });
    await (carol.client.transport as StreamableHTTPClientTransport).terminateSession();
    await carol.close();
    expect(await lastSample()).toMatch(/^error: .*(has ended|cannot route)/);
    expect(alice.sampled.join()).not.toContain('Carol');
    expect(bob.sampled.join()).not.toContain('Carol');
  });

  it("G5: a server's logs reach only the session whose call caused them", async () => {
    await bob.client.setLoggingLevel('debug');
    await alice.call('mcp__logs__log_args', { secret: 'SSN 078-05-1120, card 4111 1111 1111 1111' });
    await waitFor(() => alice.logs.some((l) => String(l.data).includes('4111')), "Alice's own log");
    await bob.client.ping();
    expect(bob.logs.some((l) => String(l.data).includes('4111'))).toBe(false);
  });

  it('G5: one session choosing emergency does not silence the others; a debug session that leaves takes debug with it', async () => {
    const dave = await capableClient('Dave', open());
    await dave.client.setLoggingLevel('debug');
    await bob.client.setLoggingLevel('emergency');
    // Upstream at debug (Dave): Alice (no level chosen) gets her debug line.
    const before = alice.logs.length;
    await alice.call('mcp__levels__log_debug');
    await waitFor(() => alice.logs.slice(before).some((l) => l.level === 'debug'), 'the debug line while Dave is here');
    await (dave.client.transport as StreamableHTTPClientTransport).terminateSession();
    await dave.close();
    // Dave gone: the upstream level is recomputed to info (Alice's default), not left at debug, not emergency.
    await waitFor(async () => {
      const mark = alice.logs.length;
      await alice.call('mcp__levels__log_debug');
      await alice.call('mcp__levels__log_args', { n: mark });
      await waitFor(() => alice.logs.slice(mark).some((l) => String(l.data).includes(`"n":${mark}`)), 'the info line');
      return !alice.logs.slice(mark).some((l) => l.level === 'debug');
    }, 'the upstream level back at info');
  });

  it("G5: roots belong to the operator: the server's roots/list is answered from its config, never by a client", async () => {
    const roots = await alice.call('mcp__peer__roots');
    expect(roots.text).toContain('file:///srv/operator');
    expect(roots.text).not.toContain('/work/Alice');
    // A client's roots/list_changed is not relayed to the shared server.
    await alice.client.sendRootsListChanged();
    await bob.client.sendRootsListChanged();
    await alice.client.ping();
    expect((await alice.call('mcp__peer__roots_seen')).text).toBe('none');
    expect(alice.rootsAsked).toEqual([]);
  });
});

describe('G5 roots: the filesystem sandbox stays the operator’s over HTTP', () => {
  let gateway: HttpGatewayFixture;
  let client: Client;
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-roots-'));
  writeFileSync(join(dir, 'inside.txt'), 'inside the root');

  beforeAll(async () => {
    gateway = await httpGateway({ fs: referenceServerConfig('filesystem', { root: dir }) });
    // The attacker's client: it claims the whole disk as its root and announces a change.
    client = new Client({ name: 'wide-roots', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: 'file:///', name: 'everything' }],
    }));
    await client.connect(gateway.open());
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('G5: a client answering file:/// cannot read outside --root', async () => {
    await client.sendRootsListChanged();
    const inside = await client.callTool({
      name: 'mcp__fs__read_text_file',
      arguments: { path: join(dir, 'inside.txt') },
    });
    expect(text(inside)).toBe('inside the root');
    const outside = await client.callTool({ name: 'mcp__fs__read_text_file', arguments: { path: '/etc/hostname' } });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/denied|outside allowed/i);
  });
});

describe('G5 roots over stdio: one user, whose roots replace --root', () => {
  let client: CapableClient;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-stdio-roots-'));
    const config = join(dir, 'mcp.json');
    // `iso`: per-session connections change nothing for one user (one session, the shared connection).
    const iso = { ...peer, isolation: 'session' };
    writeFileSync(config, JSON.stringify({ mcpServers: { peer, iso }, toolSearch: { mode: 'never' } }));
    client = await capableClient('S', stdioGateway(['serve', '--config', config]));
    await waitFor(
      async () => {
        const names = (await client.client.listTools()).tools.map((t) => t.name);
        // Both servers: on a loaded machine the second may still be connecting when the first lists.
        return names.includes('mcp__peer__roots') && names.includes('mcp__iso__roots');
      },
      'peer and iso connected',
      30_000,
    );
  }, 40_000);
  afterAll(async () => {
    await client?.close();
  });

  it("G5: the client's roots and roots/list_changed pass through", async () => {
    expect((await client.call('mcp__peer__roots')).text).toContain('file:///work/S');
    await client.client.sendRootsListChanged();
    await waitFor(
      async () => (await client.call('mcp__peer__roots_seen')).text.includes('file:///work/S'),
      'the server re-reading roots',
    );
  });

  it('G5: a late sampling request with nothing in flight goes to the one user', async () => {
    await client.call('mcp__peer__late_sample', { secret: 'only user', delayMs: 50 });
    await waitFor(() => client.sampled.includes('only user'), 'the sampling request');
  });

  it('G5: "isolation": "session" changes nothing over stdio: the same connection, the client\'s roots', async () => {
    const pid = (await client.call('mcp__iso__pid')).text;
    expect((await client.call('mcp__iso__pid')).text).toBe(pid);
    expect((await client.call('mcp__iso__roots')).text).toContain('file:///work/S');
    await client.call('mcp__iso__late_sample', { secret: 'only user, isolated server', delayMs: 50 });
    await waitFor(() => client.sampled.includes('only user, isolated server'), 'the sampling request');
  });
});

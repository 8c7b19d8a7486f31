import { StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';
import { httpGateway, type HttpGatewayFixture } from '../fixtures/http-gateway.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { eraClient } from '../gateway/eras-clients.js';
import { capableClient, type CapableClient } from '../gateway/fidelity-clients.js';
import { isAlive } from '../fixtures/spawned.js';

const peer = { command: process.execPath, args: [PEER_SERVER] };
const iso = { ...peer, isolation: 'session', roots: ['/srv/operator'], env: { PEER_TEMPLATES: 'peer://{x}' } };

const pidOf = async (client: CapableClient) => Number((await client.call('mcp__iso__pid')).text);
const endSession = async (client: CapableClient) => {
  await (client.client.transport as StreamableHTTPClientTransport).terminateSession();
  await client.close();
};

/**
 * G5 — `"isolation": "session"` over real Streamable HTTP: each gateway session gets its own
 * upstream connection (here its own stdio process) for an isolated server, so what that
 * connection sends is that session's, whatever the timing; a cap bounds them; they close with
 * their session and when idle.
 */
describe('G5 isolation "session": one upstream connection per HTTP session', () => {
  let gateway: HttpGatewayFixture;
  let alice: CapableClient;
  let bob: CapableClient;

  beforeAll(async () => {
    gateway = await httpGateway(
      { iso },
      // A grace far shorter than the server's delays: attribution by timing could not name the caller.
      { limits: { attributionGraceMs: 20, sessionConnectionsPerServer: 2 } },
    );
    [alice, bob] = await Promise.all([capableClient('Alice', gateway.open()), capableClient('Bob', gateway.open())]);
  }, 30_000);
  afterAll(async () => {
    await Promise.allSettled([alice?.close(), bob?.close()]);
    await gateway?.close();
  });

  it("G5: each session's calls run on its own upstream process, made on first use", async () => {
    expect(gateway.stack.hub.isolated.count('iso')).toBe(0);
    const [a, b] = [await pidOf(alice), await pidOf(bob)];
    expect(a).not.toBe(b);
    expect(await pidOf(alice)).toBe(a);
    expect(gateway.stack.hub.isolated.pids().sort()).toEqual([a, b].sort());
    expect(gateway.stack.hub.status()[0]).toMatchObject({ server: 'iso', sessionConnections: 2 });
  });

  it("G5: sampling sent after Bob's call ended (past the grace), while Alice's call runs, reaches Bob only", async () => {
    await bob.call('mcp__iso__late_sample', { secret: 'private text of Bob', delayMs: 300 });
    // On a shared connection this is the stated residual risk: Alice, the only caller left, would get it.
    expect((await alice.call('mcp__iso__hold', { ms: 800 })).text).toBe('held');
    await waitFor(() => bob.sampled.includes('private text of Bob'), "Bob's own sampling request");
    expect((await bob.call('mcp__iso__last_sample')).text).toBe('answered: sampled by Bob');
    expect(alice.sampled).toEqual([]);
  });

  it('G5: two sessions asked (elicitation) during their calls at once: each answers its own', async () => {
    // On a shared connection two sessions in flight make the request unattributable (refused).
    const [a, b] = await Promise.all([
      alice.call('mcp__iso__ask', { message: 'question for Alice' }),
      bob.call('mcp__iso__ask', { message: 'question for Bob' }),
    ]);
    expect(a.text).toBe('{"name":"user of Alice"}');
    expect(b.text).toBe('{"name":"user of Bob"}');
    expect(alice.elicited).toEqual(['question for Alice']);
    expect(bob.elicited).toEqual(['question for Bob']);
  });

  it("G5: logs of a call reach only its session, even while another session's call runs", async () => {
    const [, logged] = await Promise.all([
      bob.call('mcp__iso__hold', { ms: 300 }),
      alice.call('mcp__iso__log_args', { secret: 'SSN 078-05-1120, card 4111 1111 1111 1111' }),
    ]);
    expect(logged.text).toBe('logged');
    await waitFor(() => alice.logs.some((l) => String(l.data).includes('4111')), "Alice's own log line");
    await bob.client.ping();
    expect(bob.logs.some((l) => String(l.data).includes('4111'))).toBe(false);
  });

  it("G5: a session's logging/setLevel reaches its own connection as it is, and no other session's", async () => {
    const level = async (client: CapableClient) => (await client.call('mcp__iso__log_level')).text;
    await alice.client.setLoggingLevel('debug');
    expect(await level(alice)).toBe('debug');
    expect(await level(bob)).toBe('none');
    await bob.client.setLoggingLevel('error');
    expect(await level(bob)).toBe('error');
    expect(await level(alice)).toBe('debug');
  });

  it('G5: a session subscribes on its own connection; an update from it reaches that session only', async () => {
    const touch = async (client: CapableClient) => (await client.call('mcp__iso__touch', { uri: 'peer://a' })).text;
    await alice.client.subscribeResource({ uri: 'peer://a' });
    await bob.client.subscribeResource({ uri: 'peer://a' });
    expect(await touch(alice)).toBe('["peer://a"]');
    await waitFor(() => alice.updates.includes('peer://a'), "Alice's update");
    await bob.client.ping();
    expect(bob.updates).toEqual([]);
    expect(await touch(bob)).toBe('["peer://a"]');
    await waitFor(() => bob.updates.includes('peer://a'), "Bob's update");
    expect(alice.updates).toEqual(['peer://a']);
    await alice.client.unsubscribeResource({ uri: 'peer://a' });
    expect(await touch(alice)).toBe('[]');
  });

  it("G5: roots of a session's connection are the operator's, never the client's", async () => {
    const roots = (await alice.call('mcp__iso__roots')).text;
    expect(roots).toContain('file:///srv/operator');
    expect(alice.rootsAsked).toEqual([]);
  });

  it('G5: a 2026-07-28 request (no session) runs on the shared connection; elicitation still reaches it (MRTR)', async () => {
    const modern = await eraClient('pin', new ModernTransport(new URL(gateway.http.url)));
    try {
      expect(modern.era).toBe('modern');
      const pid = Number((await modern.call('mcp__iso__pid')).text);
      expect(isAlive(pid)).toBe(true);
      expect(gateway.stack.hub.isolated.pids()).not.toContain(pid);
      expect(gateway.stack.hub.isolated.count('iso')).toBe(2);
      // Its question reaches it as input_required (MRTR), as on any shared server.
      expect((await modern.call('mcp__iso__ask', { message: 'question for 2026' })).text).toBe(
        '{"name":"user of pin"}',
      );
      expect(modern.elicited).toEqual(['question for 2026']);
    } finally {
      await modern.close();
    }
  });

  it('G5: past sessionConnectionsPerServer the next session is refused, naming the limit; DELETE frees a place and ends the process', async () => {
    const carol = await capableClient('Carol', gateway.open());
    try {
      const refused = await carol.call('mcp__iso__pid');
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(
        /MCP server "iso" has 2 per-session connections open, the limit \(sessionConnectionsPerServer\)/,
      );
      const bobPid = await pidOf(bob);
      await endSession(bob);
      await waitFor(() => !isAlive(bobPid), "Bob's upstream process to end");
      await waitFor(() => gateway.stack.hub.isolated.count('iso') === 1, "Bob's connection released");
      const carolPid = await pidOf(carol);
      expect(carolPid).not.toBe(bobPid);
      expect(isAlive(carolPid)).toBe(true);
    } finally {
      await carol.close();
    }
  });
});

describe('G5 isolation "session": one client address gets its share of the places, not all of them', () => {
  let gateway: HttpGatewayFixture;
  const from = (address: string) => gateway.open({ 'X-Forwarded-For': address });

  beforeAll(async () => {
    gateway = await httpGateway(
      { iso },
      { limits: { sessionConnectionsPerServer: 4, sessionConnectionsPerClient: 2 } },
      // Clients behind a proxy on loopback: each is the address the proxy names.
      { trustProxy: ['loopback'] },
    );
  }, 30_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('G5: a client opening sessions in a loop is refused past its share, naming the limit; another client still gets a place', async () => {
    const mallory = await Promise.all([1, 2, 3].map((n) => capableClient(`Mallory ${n}`, from('203.0.113.7'))));
    const erin = await capableClient('Erin', from('198.51.100.2'));
    try {
      const [first, second] = [await pidOf(mallory[0]!), await pidOf(mallory[1]!)];
      expect(first).not.toBe(second);
      const refused = await mallory[2]!.call('mcp__iso__pid');
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(
        /MCP server "iso" has 2 per-session connections open for your client address, its share \(sessionConnectionsPerClient\)/,
      );
      // The server still has places: another client is not locked out.
      expect(isAlive(await pidOf(erin))).toBe(true);
      expect(gateway.stack.hub.isolated.count('iso')).toBe(3);
      // One of Mallory's sessions ends: her next session gets its place.
      await endSession(mallory[0]!);
      await waitFor(() => gateway.stack.hub.isolated.count('iso') === 2, "Mallory's first connection released");
      expect(isAlive(await pidOf(mallory[2]!))).toBe(true);
    } finally {
      await Promise.allSettled([...mallory.slice(1), erin].map((client) => client.close()));
    }
  });
});

describe('G5 isolation "session": idle connections are reaped', () => {
  let gateway: HttpGatewayFixture;
  let dave: CapableClient;

  beforeAll(async () => {
    gateway = await httpGateway({ iso }, { limits: { sessionConnectionIdleMs: 200 } });
    dave = await capableClient('Dave', gateway.open());
  }, 30_000);
  afterAll(async () => {
    await dave?.close();
    await gateway?.close();
  });

  it('G5: a connection holding a subscription is not idle; once unsubscribed it is reaped', async () => {
    await dave.client.subscribeResource({ uri: 'peer://kept' });
    const holding = await pidOf(dave);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(isAlive(holding)).toBe(true);
    expect((await dave.call('mcp__iso__touch', { uri: 'peer://kept' })).text).toBe('["peer://kept"]');
    await dave.client.unsubscribeResource({ uri: 'peer://kept' });
    await waitFor(() => !isAlive(holding), 'the connection, idle now, to be closed');
  });

  it("G5: a connection unused for sessionConnectionIdleMs is closed; the next call makes another, at the session's log level", async () => {
    await dave.client.setLoggingLevel('notice');
    const first = await pidOf(dave);
    await waitFor(() => !isAlive(first), 'the idle connection to be closed');
    expect(gateway.stack.hub.isolated.count('iso')).toBe(0);
    const second = await pidOf(dave);
    expect(second).not.toBe(first);
    expect((await dave.call('mcp__iso__log_level')).text).toBe('notice');
  });
});

describe('G5 isolation config', () => {
  it('refuses an unknown "isolation" value, naming the server', () => {
    expect(() =>
      parseHubConfig({ mcpServers: { files: { command: 'x', isolation: 'per-call' } } }, 'mcp.json'),
    ).toThrow(/mcp\.json at "mcpServers\.files\.isolation".*"shared".*"session"/);
  });
});

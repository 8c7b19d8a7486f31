/**
 * H3/C12/G5 — one server state model: connected / connecting / failed (with a reason a user acts
 * on) / quarantined (a crash loop), with reconnect counts and the last error; failed servers are
 * retried with backoff and never shown as "connecting" forever. Real processes over real stdio.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { BackoffState, DEFAULT_RECONNECT, describeFailure } from '../../src/mcp/server-state.js';
import { ToolsearchGateway } from '../../src/gateway/gateway.js';
import { connectClient } from '../fixtures/clients.js';
import { fixtureServer, hostileServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';

const exitsWith3 = {
  command: process.execPath,
  args: ['-e', 'console.error("missing SUPABASE_TOKEN"); process.exit(3)'],
};
const notInstalled = { command: 'toolsearch-test-no-such-command' };

describe('server state model (pure rules)', () => {
  it('H3: failures back off exponentially up to maxAttempts, then give up', () => {
    const backoff = new BackoffState({ ...DEFAULT_RECONNECT, initialDelayMs: 100, maxAttempts: 3 });
    expect([backoff.failed(), backoff.failed(), backoff.failed(), backoff.failed()]).toEqual([
      { kind: 'retry', delayMs: 100 },
      { kind: 'retry', delayMs: 200 },
      { kind: 'retry', delayMs: 400 },
      { kind: 'give-up' },
    ]);
  });

  it('G5: the backoff resets only after a server stayed up stableAfterMs; a flapping server is quarantined, longer each time', () => {
    const backoff = new BackoffState({
      ...DEFAULT_RECONNECT,
      initialDelayMs: 100,
      stableAfterMs: 10_000,
      flapLimit: 3,
      flapWindowMs: 60_000,
      quarantineMs: 1_000,
    });
    backoff.failed();
    backoff.failed();
    backoff.connected(0);
    // Up for 1 s only: no reset, the next delay keeps growing.
    expect(backoff.dropped(1_000)).toEqual({ kind: 'retry', delayMs: 400 });
    backoff.connected(2_000);
    expect(backoff.dropped(3_000)).toEqual({ kind: 'retry', delayMs: 800 });
    backoff.connected(4_000);
    expect(backoff.dropped(5_000)).toMatchObject({
      kind: 'quarantine',
      delayMs: 1_000,
      reason: 'dropped 3 times within 60 s',
    });
    for (const t of [6_000, 7_000]) {
      backoff.connected(t);
      backoff.dropped(t + 10);
    }
    backoff.connected(8_000);
    expect(backoff.dropped(8_010)).toMatchObject({ kind: 'quarantine', delayMs: 2_000 });
    // Up long enough: everything resets.
    const steady = new BackoffState({ ...DEFAULT_RECONNECT, initialDelayMs: 100, stableAfterMs: 10_000 });
    steady.failed();
    steady.failed();
    steady.connected(0);
    expect(steady.dropped(60_000)).toEqual({ kind: 'retry', delayMs: 100 });
  });

  it('H3: failure reasons in words a user acts on', () => {
    expect(describeFailure({ message: 'spawn supabase-mcp ENOENT', command: 'supabase-mcp' })).toBe(
      'command not found: supabase-mcp',
    );
    expect(
      describeFailure({
        message: 'MCP error -32000: Connection closed',
        exit: { code: 3, signal: null },
        stderr: ['missing TOKEN'],
      }),
    ).toBe('exited with code 3; stderr: "missing TOKEN"');
    expect(describeFailure({ message: 'timed out after 400 ms' })).toBe('timed out after 400 ms');
  });
});

describe('server states over real stdio', () => {
  it('H3/C12: a server that cannot start is failed at once with the reason, retried with backoff, then given up; never "connecting" again', async () => {
    const hub = new McpHub(parseHubConfig({ mcpServers: { nope: notInstalled, dies: exitsWith3 } }), {
      reconnect: { initialDelayMs: 50, maxAttempts: 2 },
    });
    const states = new Set<string>();
    hub.catalog.onChange(() => {
      for (const s of hub.status()) if (s.attempts > 0) states.add(`${s.server}:${s.state}`);
    });
    try {
      hub.start();
      await hub.settled();
      const first = Object.fromEntries(hub.status().map((s) => [s.server, s]));
      expect(first['nope']).toMatchObject({
        state: 'failed',
        lastError: 'could not connect: command not found: toolsearch-test-no-such-command',
      });
      expect(first['dies']).toMatchObject({
        state: 'failed',
        lastError: 'could not connect: exited with code 3; stderr: "missing SUPABASE_TOKEN"',
      });
      expect(hub.catalog.pendingServers).toEqual([]);
      expect(hub.catalog.failedServers.map((f) => f.server)).toEqual(['dies', 'nope']);
      await waitFor(
        () => hub.status().every((s) => s.reconnects === 2 && s.nextRetryAt === undefined && s.state === 'failed'),
        'both servers to give up',
      );
      expect(hub.catalog.failedServers.find((f) => f.server === 'nope')?.reason).toMatch(
        /command not found.*\(gave up after 2 retries\)/,
      );
      expect([...states].filter((s) => s.endsWith(':connecting'))).toEqual([]);
    } finally {
      await hub.close();
    }
  });

  it('G5: a flapping server (the hostile fixture, flapping mode) is quarantined with a visible status', async () => {
    const hub = new McpHub(
      parseHubConfig({
        mcpServers: { flappy: hostileServer('flappy', ['flapping'], { env: { HOSTILE_FLAP_MS: '100' } }) },
      }),
      {
        reconnect: { initialDelayMs: 20, flapLimit: 3, flapWindowMs: 60_000, quarantineMs: 60_000, maxAttempts: 10 },
      },
    );
    try {
      hub.start();
      const status = await waitFor(() => hub.status().find((s) => s.state === 'quarantined'), 'the quarantine', 20_000);
      expect(status.reconnects).toBeGreaterThanOrEqual(2);
      expect(status.lastError).toMatch(/disconnected/);
      expect(status.nextRetryAt).toBeGreaterThan(Date.now());
      expect(hub.catalog.failedServers).toEqual([
        { server: 'flappy', reason: expect.stringMatching(/^quarantined: dropped 3 times within 60 s/) },
      ]);
      expect(hub.catalog.pendingServers).toEqual([]);
    } finally {
      await hub.close();
    }
  });

  it('C12: tool_search names failed servers with their reason, apart from servers still connecting', async () => {
    const hub = new McpHub(
      parseHubConfig({ mcpServers: { supabase: notInstalled, slow: fixtureServer('slow', { delayMs: 60_000 }) } }),
      { reconnect: false },
    );
    const gateway = new ToolsearchGateway({ catalog: hub.catalog, upstream: hub, pendingWaitMs: 0 });
    hub.start();
    await waitFor(() => hub.catalog.failedServers.length === 1, 'supabase to fail');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverSide, 's1');
    const client = await connectClient(clientSide);
    try {
      const result = await client.call('tool_search', { query: 'list database tables' });
      expect(result.text).toMatch(/still connecting: slow\b/);
      expect(result.text).toMatch(
        /failed[^\n]*:\n- supabase: could not connect: command not found: toolsearch-test-no-such-command/,
      );
      expect(result.text).not.toMatch(/still connecting: [^\n]*supabase/);
      const call = await client.call('mcp__supabase__list_tables');
      expect(call.text).toMatch(/MCP server "supabase" failed: could not connect: command not found/);
    } finally {
      await client.close();
      await gateway.close();
      await hub.close();
    }
  });
});

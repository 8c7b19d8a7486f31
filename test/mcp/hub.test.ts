import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDelta } from '../../src/core/catalog.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { loadCatalogFromConfig } from '../../src/mcp/load.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';

process.env['TOOLSEARCH_TEST_SECRET'] = 'must-not-leak';

describe('G1/G2/A4 hub over real stdio servers', () => {
  let hub: McpHub;
  const deltas: CatalogDelta[] = [];
  let pendingRightAfterStart: readonly string[] = [];

  beforeAll(() => {
    const config = parseHubConfig({
      mcpServers: {
        fast: fixtureServer('fast', { env: { CONFIGURED_VAR: 'yes' }, alwaysLoad: ['add'] }),
        slow: fixtureServer('slow', { delayMs: 1200 }),
        muted: fixtureServer('muted', { defer: true }),
      },
    });
    hub = new McpHub(config, { reconnect: { initialDelayMs: 100, maxAttempts: 3 } });
    hub.catalog.onChange((delta) => deltas.push(delta));
    hub.start();
    pendingRightAfterStart = hub.catalog.pendingServers;
  });
  afterAll(() => hub.close());

  it('A4/C8: servers connect concurrently and are pending until their handshake answers', async () => {
    expect(pendingRightAfterStart).toEqual(['fast', 'muted', 'slow']);
    await waitFor(() => hub.catalog.has('mcp__fast__ping'), 'fast server tools');
    // The fast server is in while the slow one is still connecting.
    expect(hub.catalog.pendingServers).toContain('slow');
    expect(hub.status().find((s) => s.server === 'slow')?.state).toBe('connecting');
    await hub.settled();
    expect(hub.catalog.pendingServers).toEqual([]);
    expect(hub.catalog.has('mcp__slow__ping')).toBe(true);
  });

  it('G1: _meta["anthropic/alwaysLoad"], per-tool alwaysLoad and per-server defer override', async () => {
    await hub.settled();
    expect(hub.catalog.get('mcp__fast__pinned')?.alwaysLoad).toBe(true);
    expect(hub.catalog.get('mcp__fast__add')?.alwaysLoad).toBe(true);
    expect(hub.catalog.get('mcp__fast__ping')?.alwaysLoad).toBeUndefined();
    expect(hub.catalog.get('mcp__muted__pinned')?.alwaysLoad).toBe(false);
    expect(hub.catalog.get('mcp__fast__ping')).toMatchObject({
      originalName: 'ping',
      origin: { kind: 'mcp', server: 'fast' },
    });
  });

  it('G1: upstream env holds only the configured variables plus a safe base', async () => {
    await hub.settled();
    const result = await hub.callTool('fast', 'show_env', {});
    const names = JSON.parse((result.content as { text: string }[])[0]!.text) as string[];
    expect(names).toContain('CONFIGURED_VAR');
    expect(names).toContain('PATH');
    expect(names).not.toContain('TOOLSEARCH_TEST_SECRET');
  });

  it('G2: tools/list_changed from a server becomes a catalog delta', async () => {
    await hub.settled();
    deltas.length = 0;
    await hub.callTool('fast', 'grow', {});
    await waitFor(() => hub.catalog.has('mcp__fast__extra'), 'the grown tool');
    expect(deltas.some((d) => d.added.includes('mcp__fast__extra') && d.removed.length === 0)).toBe(true);
  });

  it('G1/A4: a server that dies is removed, pending while reconnecting, and comes back', async () => {
    await hub.settled();
    deltas.length = 0;
    await hub.callTool('slow', 'die', {});
    await waitFor(() => deltas.some((d) => d.removed.includes('mcp__slow__ping')), 'removal of the dead server');
    expect(hub.catalog.has('mcp__slow__ping')).toBe(false);
    expect(hub.catalog.pendingServers).toContain('slow');
    await expect(hub.callTool('slow', 'ping', {})).rejects.toThrow(/MCP server "slow" is not connected \(reconnecting/);
    await waitFor(() => hub.catalog.has('mcp__slow__ping'), 'the server to come back', 15_000);
    expect(hub.catalog.pendingServers).not.toContain('slow');
    const pong = await hub.callTool('slow', 'ping', {});
    expect(pong.content).toEqual([{ type: 'text', text: 'pong from slow' }]);
  });

  it('G1: a tool error from the server is returned as is', async () => {
    const result = await hub.callTool('fast', 'fail', {});
    expect(result.isError).toBe(true);
  });
});

describe('G1 one-shot loading (loadCatalogFromConfig)', () => {
  it('G1: a server that cannot start is reported, not left pending; a slow one times out', async () => {
    const loaded = await loadCatalogFromConfig({
      mcpServers: {
        ok: fixtureServer('ok'),
        broken: { command: process.execPath, args: ['-e', 'process.exit(2)'] },
        sluggish: fixtureServer('sluggish', { delayMs: 20_000, timeoutMs: 400 }),
      },
    });
    try {
      expect(loaded.catalog.has('mcp__ok__ping')).toBe(true);
      expect(loaded.catalog.pendingServers).toEqual([]);
      const status = Object.fromEntries(loaded.hub.status().map((s) => [s.server, s]));
      expect(status['ok']?.state).toBe('connected');
      expect(status['broken']).toMatchObject({
        state: 'failed',
        lastError: expect.stringMatching(/could not connect/),
      });
      expect(status['sluggish']).toMatchObject({
        state: 'failed',
        lastError: expect.stringMatching(/timed out after 400 ms/),
      });
    } finally {
      await loaded.close();
    }
  });
});

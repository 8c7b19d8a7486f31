/** G7: McpHub.reconfigure and ConfigReloader edge cases over real fixture processes. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';
import { ConfigReloader } from '../../src/mcp/config-reloader.js';
import { McpHub } from '../../src/mcp/hub.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { isAlive } from '../fixtures/spawned.js';

describe('G7 hub reconfigure', () => {
  const hubs: McpHub[] = [];
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.close()));
  });

  it('G7: a server removed while it is still connecting stops: no process, not pending, no tools', async () => {
    const config = parseHubConfig({
      mcpServers: { fast: fixtureServer('fast'), slow: fixtureServer('slow', { delayMs: 60_000 }) },
    });
    const hub = new McpHub(config, { reconnect: false }).start();
    hubs.push(hub);
    const slowPid = await waitFor(() => hub.status().find((s) => s.server === 'slow')?.pid, 'the slow process');
    await waitFor(() => hub.status().find((s) => s.server === 'fast')?.state === 'connected', 'fast');
    expect(hub.catalog.pendingServers).toEqual(['slow']);
    const changes = await hub.reconfigure(parseHubConfig({ mcpServers: { fast: fixtureServer('fast') } }));
    expect(changes).toMatchObject({ removed: ['slow'], unchanged: ['fast'] });
    expect(hub.servers()).toEqual(['fast']);
    expect(hub.catalog.pendingServers).toEqual([]);
    await waitFor(() => !isAlive(slowPid), 'the slow process to end');
    // settled() no longer waits for a server that is gone.
    await hub.settled(5_000);
    expect(hub.catalog.get('mcp__fast__ping')).toBeDefined();
  }, 30_000);

  it('G7: a watched save reloads; toolSearch changes are reported as needing a restart, not applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-hub-reload-'));
    const file = join(dir, 'mcp.json');
    const text = JSON.stringify({ mcpServers: { a: fixtureServer('a') }, toolSearch: { mode: 'always' } });
    writeFileSync(file, text);
    const hub = new McpHub(parseHubConfig(JSON.parse(text), file), { reconnect: false }).start();
    hubs.push(hub);
    const reloader = new ConfigReloader(file, hub, { debounceMs: 50 }).watch();
    try {
      const events: unknown[] = [];
      reloader.onReload((e) => events.push(e));
      writeFileSync(file, JSON.stringify({ mcpServers: { a: fixtureServer('a') }, toolSearch: { mode: 'never' } }));
      const event = await waitFor(() => events[0], 'the reload');
      expect(event).toMatchObject({ ok: true, needsRestart: ['mode'], changes: { unchanged: ['a'] } });
      // The hub keeps the toolSearch it started with.
      expect(hub.config.toolSearch.mode).toBe('always');
      const forced = await reloader.reload('request');
      expect(forced).toMatchObject({ ok: true, trigger: 'request' });
      expect(reloader.status()).toMatchObject({ source: file, watching: true, lastReload: { trigger: 'request' } });
    } finally {
      reloader.close();
    }
  }, 30_000);
});

/**
 * G7: both protocol eras upstream — a 2026-07-28-only server, a dual-era server and a 2025 server
 * behind one hub, over Streamable HTTP and stdio; the era pinned per entry; a stdio server's era
 * remembered so it is spawned once per start, not twice.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { ERA_SERVER, fixtureServer } from '../fixtures/servers/index.js';
import { type Spawned, spawnListening } from '../fixtures/spawned.js';

function text(result: { content?: unknown[] }): string {
  return (result.content as { text?: string }[])[0]?.text ?? '';
}

describe('G7: both protocol eras upstream', () => {
  let modernHttp: Spawned;
  let dualHttp: Spawned;
  let stateDir: string;
  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'ts-eras-'));
    [modernHttp, dualHttp] = await Promise.all([
      spawnListening([ERA_SERVER, 'http', 'modern', 'modern']),
      spawnListening([ERA_SERVER, 'http', 'dual', 'dual']),
    ]);
  });
  afterAll(async () => {
    await Promise.all([modernHttp?.stop(), dualHttp?.stop()]);
  });

  it('G7: 2026-only, dual-era and 2025 servers over HTTP and stdio all connect; each call runs in the era negotiated', async () => {
    const spawnLog = join(stateDir, 'spawns-a.log');
    writeFileSync(spawnLog, '');
    const config = parseHubConfig({
      mcpServers: {
        modern: { url: modernHttp.url },
        dual: { url: dualHttp.url },
        dual2025: { url: dualHttp.url, protocol: '2025' },
        modernStdio: {
          command: process.execPath,
          args: [ERA_SERVER, 'stdio', 'modern', 'mstdio'],
          env: { SPAWN_LOG: spawnLog },
        },
        legacyStdio: fixtureServer('legacy'),
      },
    });
    const hub = new McpHub(config, { reconnect: false, stateDir }).start();
    try {
      await hub.settled();
      const states = Object.fromEntries(hub.status().map((s) => [s.server, s.state]));
      expect(states).toEqual({
        modern: 'connected',
        dual: 'connected',
        dual2025: 'connected',
        modernStdio: 'connected',
        legacyStdio: 'connected',
      });
      expect(text(await hub.callTool('modern', 'era', {}))).toBe('modern');
      expect(text(await hub.callTool('modern', 'modern_echo', { message: 'hi' }))).toBe('modern: hi');
      expect(text(await hub.callTool('dual', 'era', {}))).toBe('modern');
      expect(text(await hub.callTool('dual2025', 'era', {}))).toBe('legacy');
      expect(text(await hub.callTool('modernStdio', 'era', {}))).toBe('modern');
      expect(text(await hub.callTool('legacyStdio', 'add', { a: 2, b: 3 }))).toContain('5');
      const names = hub.catalog.tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['mcp__modern__modern_echo', 'mcp__modernStdio__mstdio_echo']));
    } finally {
      await hub.close();
    }
  });

  it('G7: a 2026-only stdio server costs one extra spawn on its first start (2025 refused, then the probe on the same process); its era is remembered and later starts spawn it once', async () => {
    const spawnLog = join(stateDir, 'spawns-b.log');
    writeFileSync(spawnLog, '');
    const config = parseHubConfig({
      mcpServers: {
        once: {
          command: process.execPath,
          args: [ERA_SERVER, 'stdio', 'modern', 'once'],
          env: { SPAWN_LOG: spawnLog },
        },
      },
    });
    const spawns = () => readFileSync(spawnLog, 'utf8').split('\n').filter(Boolean).length;
    for (const expected of [2, 3, 4]) {
      const hub = new McpHub(config, { reconnect: false, stateDir }).start();
      await hub.settled();
      expect(hub.status()[0]?.state).toBe('connected');
      expect(text(await hub.callTool('once', 'era', {}))).toBe('modern');
      await hub.close();
      expect(spawns()).toBe(expected);
    }
    const remembered = JSON.parse(readFileSync(join(stateDir, 'servers.json'), 'utf8')) as Record<string, unknown>;
    const entry = Object.entries(remembered).find(([key]) => key.startsWith('once#'))?.[1] as {
      era?: { kind: string };
    };
    expect(entry?.era?.kind).toBe('modern');
  });

  it('G7: an entry pinned to an era it cannot speak fails with the reason; pinned to 2026-07-28 a dual server speaks it', async () => {
    const config = parseHubConfig({
      mcpServers: {
        refused: { url: modernHttp.url, protocol: '2025' },
        pinned: { url: dualHttp.url, protocol: '2026-07-28' },
        pinnedLegacy: { ...fixtureServer('old'), protocol: '2026-07-28' },
      },
    });
    const hub = new McpHub(config, { reconnect: false, stateDir }).start();
    try {
      await hub.settled();
      const status = Object.fromEntries(hub.status().map((s) => [s.server, s]));
      expect(status['pinned']?.state).toBe('connected');
      expect(text(await hub.callTool('pinned', 'era', {}))).toBe('modern');
      expect(status['refused']?.state).toBe('failed');
      expect(status['refused']?.lastError).toMatch(/protocol|version/i);
      expect(status['pinnedLegacy']?.state).toBe('failed');
    } finally {
      await hub.close();
    }
  });
});

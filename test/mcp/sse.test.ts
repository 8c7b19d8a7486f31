/**
 * G7: legacy HTTP+SSE upstreams — `"type": "sse"`, and a URL without a type that answers
 * Streamable HTTP with a 4xx falls back to SSE, remembered for the next start.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { SSE_SERVER } from '../fixtures/servers/index.js';
import { type Spawned, spawnListening } from '../fixtures/spawned.js';

describe('G7: legacy SSE upstreams', () => {
  let sse: Spawned;
  let stateDir: string;
  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'ts-sse-'));
    sse = await spawnListening([SSE_SERVER, 'legacy']);
  });
  afterAll(() => sse?.stop());

  it('G7: "type": "sse" and an untyped URL (Streamable HTTP answers 405, then SSE) both list and call; the fallback is remembered', async () => {
    const config = parseHubConfig({
      mcpServers: { typed: { type: 'sse', url: sse.url }, guessed: { url: sse.url } },
    });
    const hub = new McpHub(config, { reconnect: false, stateDir }).start();
    try {
      await hub.settled();
      expect(hub.status().map((s) => [s.server, s.state])).toEqual([
        ['typed', 'connected'],
        ['guessed', 'connected'],
      ]);
      for (const server of ['typed', 'guessed']) {
        const result = await hub.callTool(server, 'legacy_shout', { message: 'quiet' });
        expect((result.content as { text: string }[])[0]?.text).toBe('QUIET');
      }
      expect(hub.catalog.tools.map((t) => t.name)).toContain('mcp__guessed__legacy_shout');
    } finally {
      await hub.close();
    }
    const remembered = JSON.parse(readFileSync(join(stateDir, 'servers.json'), 'utf8')) as Record<
      string,
      { transport?: string }
    >;
    const guessed = Object.entries(remembered).find(([key]) => key.startsWith('guessed#'))?.[1];
    expect(guessed?.transport).toBe('sse');
    const typed = Object.entries(remembered).find(([key]) => key.startsWith('typed#'))?.[1];
    expect(typed?.transport).toBeUndefined();
  });
});

/**
 * C8 for one-shot clients (issue 13): the first `tool_search` right after start waits (bounded) for
 * servers still connecting instead of answering "nothing found"; `tools/list` does not wait.
 * Real `toolsearch serve` over stdio, real fixture servers, the SDK client.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { stdioGateway } from '../fixtures/stdio-gateway.js';
import { waitFor } from '../fixtures/wait.js';

async function serveStdio(config: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'ts-first-search-'));
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify(config));
  const transport = stdioGateway(['serve', '--config', file, '--log-level', 'silent']);
  return connectClient(transport);
}

describe('C8 the first search waits for servers still connecting', () => {
  it('C8: a search sent at once finds the tools of a server that connects a moment later; tools/list does not wait', async () => {
    const client = await serveStdio({ mcpServers: { slow: fixtureServer('slow', { delayMs: 1500 }) } });
    try {
      // Immediately after initialize the slow server is still connecting: the list answers anyway.
      const listed = await client.toolNames();
      expect(listed).toContain('tool_search');
      expect(listed).not.toContain('mcp__slow__ping');
      const first = await client.call('tool_search', { query: 'ping' });
      expect(first.text).toContain('mcp__slow__ping');
      expect(first.text).not.toMatch(/still connecting/);
    } finally {
      await client.close();
    }
  });

  it('C8: a first search that already finds something still waits for servers on their first connect, so the better tool is not missed', async () => {
    // quick answers at once, slow a moment later: a keyword search sent at once would otherwise
    // settle for quick's tools only.
    const client = await serveStdio({
      mcpServers: { quick: fixtureServer('quick'), slow: fixtureServer('slow', { delayMs: 1500 }) },
    });
    try {
      const first = await client.call('tool_search', { query: 'ping', max_results: 10 });
      expect(first.text).toContain('mcp__slow__ping');
      expect(first.text).not.toMatch(/still connecting/);
    } finally {
      await client.close();
    }
  });

  it('C8: the wait is bounded (toolSearch.searchWaitMs): a server slower than that is named as still connecting', async () => {
    const client = await serveStdio({
      mcpServers: { glacial: fixtureServer('glacial', { delayMs: 60_000 }) },
      toolSearch: { searchWaitMs: 200 },
    });
    try {
      const result = await client.call('tool_search', { query: 'ping' });
      expect(result.text).toMatch(/still connecting: glacial/);
    } finally {
      await client.close();
    }
  });

  it('C8/C15: a partial answer says so first, and shows a full definition only for a strong match', async () => {
    const client = await serveStdio({
      mcpServers: { quick: fixtureServer('quick'), glacial: fixtureServer('glacial', { delayMs: 60_000 }) },
      toolSearch: { searchWaitMs: 200, learning: false },
    });
    try {
      const partial =
        'Partial answer: MCP servers still connecting: glacial. Their tools are not searched yet; search again in a moment to include them.';
      // Close hits ("server" is in several descriptions): the answer is partial and shows nothing in full.
      const weak = await waitFor(
        async () => {
          const text = (await client.call('tool_search', { query: 'server' })).text;
          return text.includes('mcp__quick__') ? text : undefined;
        },
        'quick connected',
        30_000,
      );
      expect(weak.split('\n')[0]).toBe(partial);
      expect(weak).not.toMatch(/^\{/m);
      expect(weak).toMatch(/^- mcp__quick__die\(\) — /m);
      // A strong match (every word held, far ahead of the rest) is shown in full, after the same first line.
      const strong = (await client.call('tool_search', { query: 'add two numbers and return the sum' })).text;
      expect(strong.split('\n')[0]).toBe(partial);
      expect(strong).toMatch(/^\{"name":"mcp__quick__add"/m);
    } finally {
      await client.close();
    }
  });
});

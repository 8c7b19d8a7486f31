/**
 * E5 fixed-list mode end to end: `toolSearch.toolList: "fixed"` over stdio (spawned `toolsearch
 * serve`) and HTTP (in process), in front of the real server-memory from npm. The tool list never
 * changes; a search answers compact lines plus the best hit in full; calls go through call_tool.
 * It is the gateway's default: a config that says nothing runs it too; `--tool-list growing` (or the
 * config's "growing") is the way back.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePackageBin } from '../../src/mcp/defaults.js';
import { connectClient, httpClient, type TestClient } from '../fixtures/clients.js';
import { serveStdio, stdioGateway } from '../fixtures/stdio-gateway.js';
import { parseToolList } from '../../src/cli/options.js';
import { Catalog } from '../../src/core/catalog.js';
import { FixedListWithoutCallThroughError } from '../../src/gateway/errors.js';
import { ToolsearchGateway } from '../../src/gateway/gateway.js';
import { gatewayToolList } from '../../src/gateway/tools/tool-list.js';
import { serveHttp } from '../fixtures/serve-http.js';
import { waitFor } from '../fixtures/wait.js';
import { announcedNames } from '../fixtures/announced.js';

const QUERY = 'create entities in the knowledge graph';

/** A config with server-memory; `toolList` as given (absent: the gateway's default). */
function writeConfig(toolList: 'fixed' | 'growing' | undefined = 'fixed'): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-fixed-list-'));
  const config = join(dir, 'mcp.json');
  const memory = {
    command: process.execPath,
    args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  };
  const toolSearch = { ...(toolList !== undefined && { toolList }), learning: false };
  writeFileSync(config, JSON.stringify({ mcpServers: { memory }, toolSearch }));
  return { dir, config };
}

/**
 * A server that connects after the client is announced with a list_changed (the catalog changed);
 * wait for that one before counting, so only what the session's own calls cause is counted.
 */
async function announcementSettled(client: TestClient): Promise<void> {
  const memoryAnnounced = async () => {
    const search = (await client.client.listTools()).tools.find((t) => t.name === 'tool_search');
    return announcedNames(search?.description).some((n) => n.startsWith('mcp__memory__'));
  };
  if (await memoryAnnounced()) return;
  await waitFor(
    async () => (client.listChanged() >= 1 && (await memoryAnnounced()) ? true : undefined),
    'server-memory announced',
    30_000,
  );
}

/** The shared assertions: same list before and after, the best hit in full, calls through call_tool. */
async function fixedListSession(client: TestClient): Promise<void> {
  await announcementSettled(client);
  const answer = await waitFor(
    async () => {
      const text = (await client.call('tool_search', { query: QUERY })).text;
      return text.includes('mcp__memory__') ? text : undefined;
    },
    'server-memory connected',
    30_000,
  );
  const before = await client.toolNames();
  expect(before).toEqual(['tool_search', 'call_tool']);
  const changes = client.listChanged();
  expect(answer).toMatch(/^Found \d+ tools?; call through call_tool/m);
  const full = answer.split('\n').filter((l) => l.startsWith('{'));
  expect(full).toHaveLength(1);
  const best = JSON.parse(full[0]!) as { name: string; inputSchema: { properties: object } };
  expect(best.name).toBe('mcp__memory__create_entities');
  expect(best.inputSchema.properties).toHaveProperty('entities');
  expect(answer).toMatch(/^- mcp__memory__\w+\(/m);

  const created = await client.call('call_tool', {
    name: best.name,
    arguments: { entities: [{ name: 'Bob', entityType: 'person', observations: ['prefers tea'] }] },
  });
  expect(created.isError).not.toBe(true);
  // A listed tool (not shown in full) runs the same way.
  const listed = answer.match(/^- (mcp__memory__search_nodes)\(/m)?.[1];
  if (listed) {
    const found = await client.call('call_tool', { name: listed, arguments: { query: 'Bob' } });
    expect(found.text).toContain('prefers tea');
  }
  expect(await client.toolNames()).toEqual(before);
  expect(client.listChanged()).toBe(changes);
}

describe('E5 fixed tool list', () => {
  it('over stdio, as the default (no toolList in the config): the list never changes; calls go through call_tool', async () => {
    const { dir, config } = writeConfig(undefined);
    const client = await serveStdio(config, { TOOLSEARCH_STATE_DIR: join(dir, 'state') });
    try {
      expect(client.client.getInstructions()).toMatch(/never changes/);
      await fixedListSession(client);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('--tool-list growing overrides the config: what a search is sure of joins the list', async () => {
    const { dir, config } = writeConfig('fixed');
    const client = await connectClient(
      stdioGateway(['serve', '--config', config, '--log-level', 'silent', '--tool-list', 'growing'], {
        stateDir: join(dir, 'state'),
      }),
    );
    try {
      await announcementSettled(client);
      expect(client.client.getInstructions()).toMatch(/can be called by name/);
      const answer = (await client.call('tool_search', { query: 'select:mcp__memory__create_entities' })).text;
      expect(answer).toMatch(/^Loaded 1 tool/m);
      expect(await client.toolNames()).toEqual(['tool_search', 'call_tool', 'mcp__memory__create_entities']);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('over HTTP, chosen in the config: the same, per session', async () => {
    const { config } = writeConfig();
    const served = await serveHttp({ config });
    try {
      const client = await httpClient(served.http!.url);
      await fixedListSession(client);
      await client.close();
    } finally {
      await served.stack.close();
    }
  }, 60_000);

  it('a config with a tool-list value other than growing or fixed is a clear error', async () => {
    const { dir } = writeConfig();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ mcpServers: {}, toolSearch: { toolList: 'frozen' } }));
    const { readHubConfig } = await import('../../src/mcp/config.js');
    await expect(readHubConfig(bad)).rejects.toThrow(/toolList[\s\S]*"fixed" \(the default\) or "growing"/);
    expect(() => parseToolList('frozen')).toThrow(/"fixed" \(the default\) or "growing", got "frozen"/);
    expect(parseToolList('Growing')).toBe('growing');
  });

  it('with call-through off the default falls back to growing; asking for fixed then says to choose growing', async () => {
    expect(gatewayToolList(undefined)).toBe('fixed');
    expect(gatewayToolList(undefined, false)).toBe('growing');
    expect(gatewayToolList('growing', false)).toBe('growing');
    expect(() => gatewayToolList('fixed', false)).toThrow(FixedListWithoutCallThroughError);
    expect(() => gatewayToolList('fixed', false)).toThrow(/set toolList to "growing"/);
    const gateway = new ToolsearchGateway({ catalog: new Catalog(), callThrough: false });
    expect(gateway.toolList).toBe('growing');
    await gateway.close();
  });
});

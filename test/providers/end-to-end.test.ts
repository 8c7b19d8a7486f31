/**
 * A README-sized run on real parts: the memory reference server over stdio, the real searcher,
 * the real Anthropic SDK against the local recording server.
 */
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHubConfig } from '../../src/mcp/defaults.js';
import { loadCatalogFromConfig, type LoadedCatalog } from '../../src/mcp/load.js';
import { AnthropicToolSearch, mcpExecutor, runAnthropicAgent } from '../../src/providers/anthropic/index.js';
import { message, serverSearchResult, serverSearchUse, text, toolUse } from '../fixtures/wire/anthropic.js';
import { startWireServer, type WireServer } from './helpers.js';

let loaded: LoadedCatalog;
let server: WireServer;
beforeAll(async () => {
  const memoryFile = join(mkdtempSync(join(tmpdir(), 'ts-providers-')), 'memory.jsonl');
  loaded = await loadCatalogFromConfig(defaultHubConfig({ only: ['memory'], memoryFile }));
  server = await startWireServer();
});
afterAll(async () => {
  await loaded?.close();
  await server?.close();
});

describe('F1 end to end with a real MCP server', () => {
  it('F1/F8: search loads a memory tool by keywords, the call goes to the real server', async () => {
    server.script(
      '/v1/messages',
      message([toolUse('s', 'tool_search', { query: 'read the knowledge graph' })], 'tool_use'),
      message([toolUse('r', 'mcp__memory__read_graph', {})], 'tool_use'),
      message([text('The graph is empty.')]),
    );
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const toolSearch = new AnthropicToolSearch({
      pool: loaded.catalog,
      executor: mcpExecutor(loaded.hub),
      option: 'always',
    });
    const run = await runAnthropicAgent({
      client,
      toolSearch,
      params: {
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'What is in memory?' }],
      },
    });
    expect(run.steps.map((s) => [s.name, s.infrastructure])).toEqual([
      ['tool_search', true],
      ['mcp__memory__read_graph', false],
    ]);
    const [, second, third] = server.to('/v1/messages').map((r) => r.body);
    expect(second.messages[2].content[0].content).toContainEqual({
      type: 'tool_reference',
      tool_name: 'mcp__memory__read_graph',
    });
    expect(third.messages[4].content[0].content).toContain('"entities"');
    expect(second.tools.filter((t: any) => t.defer_loading).length).toBe(loaded.catalog.size);
  });

  it('F1: server-side regex search finds and calls a memory tool in one response; the call reaches the real server once', async () => {
    server.script(
      '/v1/messages',
      message(
        [
          serverSearchUse('srvtoolu_m', 'regex', '(?i)read.*graph'),
          serverSearchResult('srvtoolu_m', ['mcp__memory__read_graph']),
          toolUse('r2', 'mcp__memory__read_graph', {}),
        ],
        'tool_use',
      ),
      message([text('Still empty.')]),
    );
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const toolSearch = new AnthropicToolSearch({
      pool: loaded.catalog,
      executor: mcpExecutor(loaded.hub),
      option: 'always',
      platform: 'anthropic',
      serverSearch: 'regex',
    });
    const before = server.to('/v1/messages').length;
    const run = await runAnthropicAgent({
      client,
      toolSearch,
      params: {
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'What is in memory?' }],
      },
    });
    expect(run.steps.map((s) => [s.name, s.isError])).toEqual([
      ['tool_search_tool_regex', false],
      ['mcp__memory__read_graph', false],
    ]);
    const second = server.to('/v1/messages')[before + 1]!.body;
    expect(second.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'r2' });
    expect(second.messages[2].content[0].content).toContain('"entities"');
  });
});

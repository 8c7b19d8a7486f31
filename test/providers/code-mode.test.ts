/**
 * G11 in the library: an Anthropic agent loop offers `run_code` (withCodeMode over a real memory
 * server's catalog); the model's script — scripted here, the one part that cannot run locally —
 * searches and calls two tools in the sandbox, and only its return value goes back to the model.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHubConfig } from '../../src/mcp/defaults.js';
import { loadCatalogFromConfig, type LoadedCatalog } from '../../src/mcp/load.js';
import {
  AnthropicToolSearch,
  mcpExecutor,
  runAnthropicAgent,
  withCodeMode,
} from '../../src/providers/anthropic/index.js';
import { message, text, toolUse } from '../fixtures/wire/anthropic.js';
import { startWireServer, type WireServer } from './helpers.js';

let loaded: LoadedCatalog;
let server: WireServer;
beforeAll(async () => {
  const memoryFile = join(mkdtempSync(join(tmpdir(), 'ts-code-mode-')), 'memory.jsonl');
  loaded = await loadCatalogFromConfig(defaultHubConfig({ only: ['memory'], memoryFile }));
  server = await startWireServer();
});
afterAll(async () => {
  await loaded?.close();
  await server?.close();
});

const SCRIPT = `
const [create] = await search('create entities in the knowledge graph', { maxResults: 1 });
await call(create.name, { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote notes'] }] });
const graph = await call('mcp__memory__read_graph', {});
console.log('signature', create.signature);
return graph.entities.map((e) => e.name);
`;

describe('G11: run_code in the Anthropic loop', () => {
  it('G11: the loop offers run_code; the script searches and calls the real server; only its value returns', async () => {
    server.script(
      '/v1/messages',
      message([toolUse('c1', 'run_code', { code: SCRIPT })], 'tool_use'),
      message([text('Ada is in memory.')]),
    );
    const executor = mcpExecutor(loaded.hub);
    const pool = withCodeMode(loaded.catalog, { executor, sandbox: { limits: { timeoutMs: 10_000 } } });
    try {
      const toolSearch = new AnthropicToolSearch({ pool, executor, option: 'always' });
      const run = await runAnthropicAgent({
        client: new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 }),
        toolSearch,
        params: { model: 'claude-sonnet-5-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Note Ada.' }] },
      });
      expect(run.steps.map((s) => [s.name, s.isError])).toEqual([['run_code', false]]);
      const [first, second] = server.to('/v1/messages').map((r) => r.body);
      const runCode = first.tools.find((t: { name: string }) => t.name === 'run_code');
      expect(runCode.defer_loading).toBeUndefined();
      expect(runCode.description).toContain('call(name, args)');
      const answer = second.messages[2].content[0];
      expect(answer).toMatchObject({ type: 'tool_result', tool_use_id: 'c1' });
      expect(answer.content).toContain('["Ada"]');
      expect(answer.content).toContain('signature mcp__memory__create_entities(args: { entities: {');
      // The graph the script read did not enter the context: only the names it returned.
      expect(answer.content).not.toContain('wrote notes');
    } finally {
      pool.runCode.sandbox.close();
    }
  });
});

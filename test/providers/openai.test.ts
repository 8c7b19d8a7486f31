import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { compactionBoundary } from '../../src/core/compaction.js';
import { defineTool } from '../../src/core/tool.js';
import {
  OpenAIChatToolSearch,
  OpenAIResponsesToolSearch,
  readChatHistory,
  runChatAgent,
  runResponsesAgent,
} from '../../src/providers/openai/index.js';
import { chatCall, completion, functionCall, outputText, response, toolSearchCall } from '../fixtures/wire/openai.js';
import { standInFormat, standInSearcher, startWireServer, type WireServer } from './helpers.js';
import { MARKER_NONCE } from '../../src/core/markers.js';

function makeCatalog(): Catalog {
  const catalog = new Catalog([
    { name: 'get_time', description: 'Current time', handler: () => '12:00' },
    { name: 'render_chart', description: 'Render a chart', defer: true, handler: () => 'chart.png' },
  ]);
  catalog.setServerTools('github', [
    {
      name: 'create_issue',
      description: 'Create a GitHub issue',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { title: { type: 'string' } },
      },
    },
    { name: 'list_repos', description: 'List repositories' },
  ]);
  return catalog;
}

const executor = ({ name, input }: { name: string; input: Record<string, unknown> }) =>
  `ran ${name} ${JSON.stringify(input)}`;

let server: WireServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startWireServer();
  client = new OpenAI({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

function names(tools: any[]): string[] {
  return tools.flatMap((t) => (t.type === 'namespace' ? t.tools.map((f: any) => f.name) : [t.name ?? t.type]));
}

describe('F5 OpenAI Responses native', () => {
  it('F5: tool_search(client) → tool_search_output → call → compaction → server removed', async () => {
    const catalog = makeCatalog();
    const ts = new OpenAIResponsesToolSearch({
      pool: catalog,
      searcher: standInSearcher,
      formatResult: standInFormat,
      option: 'always',
      executor,
    });
    server.script(
      '/responses',
      response([toolSearchCall('s1', { query: 'create issue' })]),
      response([functionCall('c1', 'mcp__github__create_issue', { title: 'Bug' }, 'github')]),
      response([outputText('Done.')]),
    );
    const steps: boolean[] = [];
    const run = await runResponsesAgent({
      client,
      toolSearch: ts,
      params: { model: 'gpt-5.4', instructions: 'Be brief.', input: 'file a bug' },
      onStep: (e) => steps.push(e.infrastructure),
    });
    expect(steps).toEqual([true, false]);
    const [r1, r2, r3] = server.to('/responses').map((r) => r.body);

    expect(r1.tools[0]).toMatchObject({ type: 'tool_search', execution: 'client' });
    expect(r1.tools[1]).toMatchObject({ type: 'function', name: 'get_time' });
    expect(r1.tools[1].defer_loading).toBeUndefined();
    expect(r1.tools[2]).toMatchObject({ type: 'function', name: 'render_chart', defer_loading: true });
    expect(r1.tools[3]).toMatchObject({ type: 'namespace', name: 'github' });
    expect(r1.tools[3].tools.every((f: any) => f.defer_loading === true)).toBe(true);
    expect(JSON.stringify(r1.tools)).not.toContain('$schema');
    expect(r1.instructions).toMatch(/^Be brief\.\n\n[\s\S]*<available-deferred-tools>/);

    const output = r2.input.find((i: any) => i.type === 'tool_search_output');
    expect(output).toMatchObject({ type: 'tool_search_output', call_id: 's1', execution: 'client' });
    expect(names(output.tools)).toEqual(['mcp__github__create_issue']);
    expect(output.tools[0].tools[0].defer_loading).toBeUndefined();
    expect(r2.tools).toEqual(r1.tools); // stable tools array: the output item loads the tool
    expect(r3.input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'c1',
      output: 'ran mcp__github__create_issue {"title":"Bug"}',
    });

    // Compaction: the snapshot keeps it discovered; with no output item left, it is sent loaded.
    const summary = compactionBoundary('Filed a bug.', [{ type: 'loaded', names: ['mcp__github__create_issue'] }]);
    const compacted = await ts.prepare({ model: 'gpt-5.4', input: [{ role: 'user', content: summary }] });
    const ns = (compacted.params.tools as any[]).find((t) => t.type === 'namespace');
    expect(ns.tools.find((f: any) => f.name === 'mcp__github__create_issue').defer_loading).toBeUndefined();

    // The server goes away: its loaded definitions leave the replayed output item and the tools.
    catalog.removeServer('github');
    const gone = await ts.prepare({ model: 'gpt-5.4', input: run.input });
    expect(JSON.stringify(gone.params.tools)).not.toContain('mcp__github');
    const replayed = (gone.params.input as ResponseInputItem[]).find(
      (i) => 'type' in i && i.type === 'tool_search_output',
    );
    expect(replayed && 'tools' in replayed ? replayed.tools : undefined).toEqual([]);
  });

  it('C8/F3: nothing found adds a developer note; undiscovered call names the select: query', async () => {
    const catalog = makeCatalog();
    const ts = new OpenAIResponsesToolSearch({
      pool: catalog,
      searcher: standInSearcher,
      formatResult: standInFormat,
      option: 'always',
      executor,
    });
    const prepared = await ts.prepare({ model: 'gpt-5.4', input: 'x' });
    const miss = ts.answerSearch({ call_id: 's', arguments: { query: 'weather' } }, prepared.plan);
    expect(miss.items).toEqual([
      { type: 'tool_search_output', execution: 'client', status: 'completed', call_id: 's', tools: [] },
      { type: 'message', role: 'developer', content: 'No matching deferred tools found. 3 deferred tools exist.' },
    ]);
    const refused = await ts.runCall(
      { type: 'function_call', call_id: 'c', name: 'render_chart', arguments: '{}' },
      prepared.plan,
    );
    expect(refused.items[0]).toMatchObject({ output: expect.stringContaining('select:render_chart') });
  });

  it('B2: the kill switch sends every tool loaded and drops tool-search items', async () => {
    const ts = new OpenAIResponsesToolSearch({
      pool: makeCatalog(),
      searcher: standInSearcher,
      formatResult: standInFormat,
      killSwitch: true,
    });
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'x' },
      { type: 'tool_search_call', call_id: 's', arguments: {}, execution: 'client' },
      { type: 'tool_search_output', call_id: 's', execution: 'client', tools: [] },
    ];
    const prepared = await ts.prepare({ model: 'gpt-5.4', input, tools: [{ type: 'tool_search' }] });
    const wire = JSON.stringify(prepared.params);
    expect(wire).not.toMatch(/defer_loading|tool_search|available-deferred-tools/);
    expect(names(prepared.params.tools as any[])).toEqual([
      'get_time',
      'render_chart',
      'mcp__github__create_issue',
      'mcp__github__list_repos',
    ]);
  });
});

describe('F4 client-side expansion (Chat Completions / OpenAI-compatible)', () => {
  it('F4: the search result carries the marker and the tool joins the next request', async () => {
    const catalog = makeCatalog();
    const ts = new OpenAIChatToolSearch({
      pool: catalog,
      searcher: standInSearcher,
      formatResult: standInFormat,
      option: 'always',
      executor,
    });
    server.script(
      '/chat/completions',
      completion(null, [chatCall('a', 'tool_search', { query: 'select:mcp__github__create_issue' })]),
      completion(null, [chatCall('b', 'mcp__github__create_issue', { title: 'Bug' })]),
      completion('Done.'),
    );
    const steps: boolean[] = [];
    const run = await runChatAgent({
      client,
      toolSearch: ts,
      params: {
        model: 'local-model',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'file a bug' },
        ],
      },
      onStep: (e) => steps.push(e.infrastructure),
    });
    expect(steps).toEqual([true, false]);
    const [r1, r2, r3] = server.to('/chat/completions').map((r) => r.body);
    const fnNames = (body: any) => body.tools.map((t: any) => t.function.name);
    expect(fnNames(r1)).toEqual(['get_time', 'tool_search']);
    expect(r1.messages[1].role).toBe('system');
    expect(r1.messages[1].content).toContain('<available-deferred-tools>');
    expect(r2.messages.at(-1).content).toContain(
      `<tools-loaded n="${MARKER_NONCE}">\nmcp__github__create_issue\n</tools-loaded>`,
    );
    expect(fnNames(r2)).toEqual(['get_time', 'tool_search', 'mcp__github__create_issue']);
    expect(r2.tools[2].function.parameters.$schema).toBeUndefined();
    expect(r3.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'b',
      content: 'ran mcp__github__create_issue {"title":"Bug"}',
    });
    expect(r1.messages[1]).toEqual(r3.messages[1]); // the announcement sits at the same place each request

    // Compaction then server removal.
    const summary = compactionBoundary('Filed a bug.', readChatHistory(run.messages));
    const compacted = await ts.prepare({ model: 'local-model', messages: [{ role: 'user', content: summary }] });
    expect(compacted.params.tools!.map((t) => (t.type === 'function' ? t.function.name : ''))).toContain(
      'mcp__github__create_issue',
    );
    catalog.removeServer('github');
    const gone = await ts.prepare({ model: 'local-model', messages: run.messages });
    expect(gone.params.tools!.map((t) => (t.type === 'function' ? t.function.name : ''))).toEqual([
      'get_time',
      'tool_search',
    ]);
  });

  it('F3: justInTime runs a never-loaded tool and loads it for the next request', async () => {
    const catalog = new Catalog([
      defineTool({ name: 'render_chart', description: 'Render a chart', defer: true, handler: () => 'chart.png' }),
    ]);
    const ts = new OpenAIChatToolSearch({
      pool: catalog,
      searcher: standInSearcher,
      formatResult: standInFormat,
      option: 'always',
      justInTime: true,
    });
    const prepared = await ts.prepare({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const run = await ts.runToolCall(chatCall('c', 'render_chart', {}), prepared.plan);
    expect(run.message.content).toBe(`chart.png\n<tools-loaded n="${MARKER_NONCE}">\nrender_chart\n</tools-loaded>`);
  });
});

describe('F4 with the real search engine', () => {
  it('F4/C4: the default ToolSearcher loads by keywords and the marker lists what it loaded', async () => {
    const ts = new OpenAIChatToolSearch({ pool: makeCatalog(), option: 'always' });
    const prepared = await ts.prepare({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const run = await ts.runToolCall(
      chatCall('c', 'tool_search', { query: 'list repositories', max_results: 1 }),
      prepared.plan,
    );
    expect(run.message.content).toContain(
      `<tools-loaded n="${MARKER_NONCE}">\nmcp__github__list_repos\n</tools-loaded>`,
    );
    const next = await ts.prepare({ model: 'm', messages: [{ role: 'user', content: 'x' }, run.message] });
    expect(next.plan.discovered).toEqual(['mcp__github__list_repos']);
  });
});

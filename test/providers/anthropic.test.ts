import { announcedNames } from '../fixtures/announced.js';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAnthropicHistory } from '../../src/core/anthropic-history.js';
import type { Catalog } from '../../src/core/catalog.js';
import { compactionBoundary } from '../../src/core/compaction.js';
import { DeferredTokenMemo } from '../../src/core/threshold.js';
import {
  AnthropicToolSearch,
  anthropicTokenCounter,
  normalizeAnthropicMessages,
  runAnthropicAgent,
  TOOL_LOADED_TEXT,
  type AnthropicToolSearchOptions,
} from '../../src/providers/anthropic/index.js';
import { message, text, toolUse } from '../fixtures/wire/anthropic.js';
import { sampleCatalog, standInFormat, standInSearcher, startWireServer, type WireServer } from './helpers.js';

const MODEL = 'claude-sonnet-5-5';

const makeCatalog = () => sampleCatalog();

let server: WireServer;
let client: Anthropic;
beforeEach(async () => {
  server = await startWireServer();
  client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

/** The F1/F2 path (`defer_loading` + `tool_reference`); tool changes (F9) have their own suite. */
function toolSearch(catalog: Catalog, extra: Partial<AnthropicToolSearchOptions> = {}): AnthropicToolSearch {
  return new AnthropicToolSearch({
    toolChanges: 'off',
    pool: catalog,
    searcher: standInSearcher,
    formatResult: standInFormat,
    option: 'always',
    executor: ({ name, input }) => `ran ${name} ${JSON.stringify(input)}`,
    ...extra,
  });
}

const base = (messages: MessageParam[]): MessageCreateParamsNonStreaming => ({
  model: MODEL,
  max_tokens: 512,
  system: 'You are helpful.',
  messages,
});

function toolNamed(body: any, name: string): any {
  return body.tools.find((t: any) => t.name === name);
}

describe('F1 Anthropic native', () => {
  it('F1: search → reference → call → compaction → server removed, asserted on the wire', async () => {
    const catalog = makeCatalog();
    const ts = toolSearch(catalog);
    server.script(
      '/v1/messages',
      message([toolUse('tu1', 'tool_search', { query: 'create issue' })], 'tool_use'),
      message([toolUse('tu2', 'mcp__github__create_issue', { title: 'Bug' })], 'tool_use'),
      message([text('Done.')]),
    );
    const steps: boolean[] = [];
    const run = await runAnthropicAgent({
      client,
      toolSearch: ts,
      params: base([{ role: 'user', content: 'file a bug' }]),
      onStep: (e) => steps.push(e.infrastructure),
    });
    expect(run.response.content).toEqual([text('Done.')]);
    expect(steps).toEqual([true, false]); // F8: the search call is infrastructure

    const [r1, r2, r3] = server.to('/v1/messages').map((r) => r.body);
    // Request 1: deferred MCP tools flagged, local tool and search tool loaded, announcement in system.
    expect(toolNamed(r1, 'get_time').defer_loading).toBeUndefined();
    expect(toolNamed(r1, 'tool_search').defer_loading).toBeUndefined();
    expect(toolNamed(r1, 'mcp__github__create_issue').defer_loading).toBe(true);
    expect(toolNamed(r1, 'mcp__slack__send_message').defer_loading).toBe(true);
    expect(r1.system[0]).toEqual({ type: 'text', text: 'You are helpful.' });
    expect(r1.system[1].text).toContain('<available-deferred-tools>');
    expect(announcedNames(r1.system[1].text)).toContain('mcp__github__create_issue');

    // Request 2: the search result is a tool_reference, with the "Tool loaded." boundary.
    const result = r2.messages[2].content;
    expect(result[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'tu1',
      content: [{ type: 'tool_reference', tool_name: 'mcp__github__create_issue' }],
    });
    expect(result[1]).toEqual({ type: 'text', text: TOOL_LOADED_TEXT });
    // Native: the discovered tool is still sent with defer_loading (the reference expands it), so the tools array is stable.
    expect(r2.tools).toEqual(r1.tools);
    expect(r2.system).toEqual(r1.system);

    // Request 3: caller stripped from the echoed tool_use; the tool ran through the executor.
    expect(r3.messages[3].content[0].caller).toBeUndefined();
    expect(r3.messages[4].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'tu2',
      content: 'ran mcp__github__create_issue {"title":"Bug"}',
    });

    // Compaction: the summary carries the snapshot; the discovered tool is sent loaded (nothing references it any more).
    const summary = compactionBoundary('We filed a bug.', readAnthropicHistory(run.messages));
    const compacted: MessageParam[] = [
      { role: 'user', content: summary },
      { role: 'user', content: 'another one' },
    ];
    const afterCompaction = await ts.prepare(base(compacted));
    const issue = afterCompaction.params.tools!.find((t) => 'name' in t && t.name === 'mcp__github__create_issue');
    expect(issue).toBeDefined();
    expect(issue && 'defer_loading' in issue ? issue.defer_loading : undefined).toBeUndefined();
    expect(afterCompaction.plan.discovered).toEqual(['mcp__github__create_issue']);

    // The github server disappears: its references are stripped from the next request.
    catalog.removeServer('github');
    const gone = await ts.prepare(base(run.messages));
    const wire = JSON.stringify(gone.params);
    expect(wire).not.toContain('"tool_name":"mcp__github__create_issue"');
    expect(gone.params.tools!.some((t) => 'name' in t && t.name.startsWith('mcp__github'))).toBe(false);
    const stripped = gone.params.messages[2]!.content as any[];
    expect(stripped[0].content).toEqual([{ type: 'text', text: 'No longer available: mcp__github__create_issue.' }]);
  });

  it('C8: a search that finds nothing returns text naming the deferred count and pending servers', async () => {
    const catalog = makeCatalog();
    catalog.markPending('jira');
    const ts = toolSearch(catalog);
    const prepared = await ts.prepare(base([{ role: 'user', content: 'x' }]));
    const run = await ts.runToolUse(
      { id: 't', name: 'tool_search', input: { query: 'weather forecast' } },
      prepared.plan,
    );
    expect(run.infrastructure).toBe(true);
    expect(run.result.content).toEqual([
      { type: 'text', text: 'No matching deferred tools found. 3 deferred tools exist. Still connecting: jira.' },
    ]);
  });

  it('F3: calling a never-loaded deferred tool returns the exact select: query; justInTime runs and loads it', async () => {
    const catalog = makeCatalog();
    const prepared = await toolSearch(catalog).prepare(base([{ role: 'user', content: 'x' }]));
    const call = { id: 't9', name: 'mcp__slack__send_message', input: { text: 'hi' } };
    const refused = await toolSearch(catalog).runToolUse(call, prepared.plan);
    expect(refused.result.is_error).toBe(true);
    expect(refused.result.content).toContain('tool_search({"query": "select:mcp__slack__send_message"})');

    const jit = await toolSearch(catalog, { justInTime: true }).runToolUse(call, prepared.plan);
    expect(jit.result.is_error).toBeUndefined();
    expect(jit.result.content).toEqual([
      { type: 'text', text: 'ran mcp__slack__send_message {"text":"hi"}' },
      { type: 'tool_reference', tool_name: 'mcp__slack__send_message' },
    ]);
  });

  it('F1: server-side regex search replaces the client search tool', async () => {
    const prepared = await toolSearch(makeCatalog(), { serverSearch: 'regex' }).prepare(
      base([{ role: 'user', content: 'x' }]),
    );
    const tools = prepared.params.tools!;
    expect(tools).toContainEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
    expect(tools.some((t) => 'name' in t && t.name === 'tool_search')).toBe(false);
    const bm25 = await toolSearch(makeCatalog(), { serverSearch: 'bm25' }).prepare(
      base([{ role: 'user', content: 'x' }]),
    );
    expect(bm25.params.tools).toContainEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
  });
});

/** A history as the native path leaves it: search, reference, server-side search, call with caller. */
function referenceHistory(): MessageParam[] {
  return [
    { role: 'user', content: 'file a bug' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'a', name: 'tool_search', input: { query: 'issue' }, caller: { type: 'direct' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'a',
          content: [{ type: 'tool_reference', tool_name: 'mcp__github__create_issue' }],
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srv', name: 'tool_search_tool_regex', input: { pattern: 'slack' } },
        {
          type: 'tool_search_tool_result',
          tool_use_id: 'srv',
          content: {
            type: 'tool_search_tool_search_result',
            tool_references: [{ type: 'tool_reference', tool_name: 'mcp__slack__send_message' }],
          },
        },
      ],
    },
  ];
}

describe('F2 Anthropic message normalization', () => {
  it('B2: the kill switch strips defer flags, references, server search tools and blocks', async () => {
    const ts = toolSearch(makeCatalog(), { killSwitch: true });
    const params = {
      ...base(referenceHistory()),
      tools: [
        { name: 'mine', input_schema: { type: 'object' as const }, defer_loading: true },
        { type: 'tool_search_tool_bm25_20251119' as const, name: 'tool_search_tool_bm25' as const },
      ],
    } satisfies MessageCreateParamsNonStreaming;
    const prepared = await ts.prepare(params);
    const wire = JSON.stringify(prepared.params);
    for (const needle of [
      'defer_loading',
      'tool_reference',
      'tool_search_tool',
      'server_tool_use',
      'caller',
      'available-deferred-tools',
    ]) {
      expect(wire).not.toContain(needle);
    }
    expect(prepared.params.messages).toHaveLength(3); // the server-search-only turn is gone
    expect(prepared.params.tools!.map((t) => ('name' in t ? t.name : t.type))).toEqual([
      'mine',
      'get_time',
      'mcp__github__create_issue',
      'mcp__github__list_repos',
      'mcp__slack__send_message',
    ]);
    expect((prepared.params.messages[2]!.content as any[])[0].content).toEqual([
      { type: 'text', text: 'Tools loaded: mcp__github__create_issue.' },
    ]);
  });

  it('F2/B4: a switch to a haiku model strips references and expands client-side; load-all on request', async () => {
    const prepared = await toolSearch(makeCatalog()).prepare({
      ...base(referenceHistory()),
      model: 'claude-haiku-4-5',
    });
    expect(prepared.plan).toMatchObject({ useToolSearch: true, expansion: 'client' });
    expect(JSON.stringify(prepared.params)).not.toMatch(/tool_reference|defer_loading|tool_search_tool/);
    // The tools the history loaded are sent as plain tools; the rest wait behind tool_search.
    const names = prepared.params.tools!.map((t) => ('name' in t ? t.name : ''));
    expect(names).toEqual(['get_time', 'tool_search', 'mcp__github__create_issue', 'mcp__slack__send_message']);
    const all = await toolSearch(makeCatalog(), { unsupportedModelFallback: 'load-all' }).prepare({
      ...base(referenceHistory()),
      model: 'claude-haiku-4-5',
    });
    expect(all.plan.useToolSearch).toBe(false);
    expect(JSON.stringify(all.params)).not.toMatch(/tool_reference|defer_loading/);
  });

  it('F2: references to tools no longer in the pool are stripped, others kept', () => {
    const out = normalizeAnthropicMessages(referenceHistory(), {
      references: true,
      available: new Set(['mcp__github__create_issue']),
    });
    const search = (out[3]!.content as any[])[1];
    expect(search.content.tool_references).toEqual([]);
    expect((out[2]!.content as any[])[0].content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__github__create_issue' },
    ]);
    expect((out[1]!.content as any[])[0].caller).toBeUndefined();
  });

  it('F2: text siblings of a reference message move to the next tool-result message without references', () => {
    const messages: MessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'tool_reference', tool_name: 'x' }] },
          { type: 'text', text: 'memory reminder' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'b', name: 'x', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', content: 'ok' }] },
    ];
    const out = normalizeAnthropicMessages(messages, { references: true, available: new Set(['x']) });
    expect(out[0]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'tool_reference', tool_name: 'x' }] },
      { type: 'text', text: TOOL_LOADED_TEXT },
    ]);
    expect(out[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'b', content: 'ok' },
      { type: 'text', text: 'memory reminder' },
    ]);
    // No valid target: the siblings stay where they are.
    const tail = normalizeAnthropicMessages(messages.slice(0, 1), { references: true, available: new Set(['x']) });
    expect(tail[0]!.content).toEqual(messages[0]!.content);
    // The input is not mutated.
    expect((messages[0]!.content as unknown[]).length).toBe(2);
  });
});

describe('B3 Anthropic token counting', () => {
  it('B3: countTokens minus the no-tools baseline, minus the preamble; estimate on failure', async () => {
    const catalog = makeCatalog();
    server.script('/v1/messages/count_tokens', { input_tokens: 1_800 }, { input_tokens: 8 });
    const counter = anthropicTokenCounter(client, MODEL);
    const memo = new DeferredTokenMemo(counter);
    const measured = await memo.measure(catalog.tools);
    expect(measured).toEqual({ tokens: 1_800 - 8 - 500, source: 'counter' });
    const sent = server.to('/v1/messages/count_tokens').map((r) => r.body);
    expect(sent.find((b) => b.tools)?.tools).toHaveLength(4);

    const failing = new DeferredTokenMemo(counter); // the server has no more scripted replies → 500
    expect((await failing.measure(catalog.tools.slice(1))).source).toBe('estimate');
  });

  it('B3: in auto mode the adapter measures the deferred tools once per pool', async () => {
    server.script('/v1/messages/count_tokens', { input_tokens: 100_000 }, { input_tokens: 8 });
    const ts = toolSearch(makeCatalog(), { option: 'auto', tokenCounter: anthropicTokenCounter(client, MODEL) });
    const first = await ts.prepare(base([{ role: 'user', content: 'x' }]));
    const second = await ts.prepare(base([{ role: 'user', content: 'y' }]));
    expect(first.plan.threshold?.measure.source).toBe('counter');
    expect(first.plan.useToolSearch).toBe(true);
    expect(second.plan.threshold).toEqual(first.plan.threshold);
    expect(server.to('/v1/messages/count_tokens')).toHaveLength(2);
  });
});

describe('F1 with the real search engine', () => {
  it('F1/C4: the default ToolSearcher answers a keyword search with references; C8 text from formatSearchResult', async () => {
    const ts = new AnthropicToolSearch({ pool: makeCatalog(), option: 'always', toolChanges: 'off' });
    const prepared = await ts.prepare(base([{ role: 'user', content: 'x' }]));
    const hit = await ts.runToolUse(
      { id: 'a', name: 'tool_search', input: { query: 'create github issue' } },
      prepared.plan,
    );
    expect((hit.result.content as any[])[0]).toEqual({
      type: 'tool_reference',
      tool_name: 'mcp__github__create_issue',
    });
    const miss = await ts.runToolUse({ id: 'b', name: 'tool_search', input: { query: 'select:nope' } }, prepared.plan);
    expect((miss.result.content as any[])[0].text).toContain('3 deferred tools are available');
  });
});

describe('B5 proxies on the Anthropic path', () => {
  it('B5: a non-first-party base URL takes no native fields unless the mode was set explicitly', async () => {
    const implicit = await toolSearch(makeCatalog(), { option: undefined, baseURL: server.url }).prepare(
      base([{ role: 'user', content: 'x' }]),
    );
    expect(implicit.plan).toMatchObject({ useToolSearch: true, expansion: 'client' });
    expect(JSON.stringify(implicit.params)).not.toMatch(/defer_loading|tool_reference|tool_search_tool/);
    const loadAll = await toolSearch(makeCatalog(), {
      option: undefined,
      baseURL: server.url,
      unsupportedModelFallback: 'load-all',
    }).prepare(base([{ role: 'user', content: 'x' }]));
    expect(loadAll.plan.useToolSearch).toBe(false);
    expect(JSON.stringify(loadAll.params)).not.toMatch(/defer_loading|tool_search/);
    const vouched = await toolSearch(makeCatalog(), { option: 'always', baseURL: server.url }).prepare(
      base([{ role: 'user', content: 'x' }]),
    );
    expect(vouched.plan).toMatchObject({ useToolSearch: true, expansion: 'native' });
  });

  it('B5: a proxy set only in ANTHROPIC_BASE_URL is read from the client: no native fields reach it', async () => {
    const before = process.env['ANTHROPIC_BASE_URL'];
    process.env['ANTHROPIC_BASE_URL'] = server.url;
    try {
      // The SDK takes the base URL from the environment; the adapter is told nothing about it.
      const envClient = new Anthropic({ apiKey: 'test', maxRetries: 0 });
      expect(envClient.baseURL).toBe(server.url);
      server.script('/v1/messages', message([text('Hi.')]));
      await runAnthropicAgent({
        client: envClient,
        toolSearch: toolSearch(makeCatalog(), { option: undefined }),
        params: base([{ role: 'user', content: 'x' }]),
      });
      const sent = server.to('/v1/messages')[0]!;
      expect(JSON.stringify(sent.body)).not.toMatch(/defer_loading|tool_reference|tool_search_tool/);
      expect(JSON.stringify(sent.headers['anthropic-beta'] ?? '')).not.toMatch(/tool-search/);
      // Given to the adapter itself, the client decides the same way.
      const given = await toolSearch(makeCatalog(), { option: undefined, client: envClient }).prepare(
        base([{ role: 'user', content: 'x' }]),
      );
      expect(given.plan).toMatchObject({ useToolSearch: true, expansion: 'client' });
      // The first-party default host still gets native deferral.
      const firstParty = new Anthropic({ apiKey: 'test', baseURL: 'https://api.anthropic.com', maxRetries: 0 });
      const native = await toolSearch(makeCatalog(), { option: undefined, client: firstParty }).prepare(
        base([{ role: 'user', content: 'x' }]),
      );
      expect(native.plan).toMatchObject({ useToolSearch: true, expansion: 'native' });
    } finally {
      if (before === undefined) delete process.env['ANTHROPIC_BASE_URL'];
      else process.env['ANTHROPIC_BASE_URL'] = before;
    }
  });
});

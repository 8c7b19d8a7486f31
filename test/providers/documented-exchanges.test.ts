/**
 * The exchanges the providers' docs show, replayed through the real `@anthropic-ai/sdk` and
 * `openai` clients against the local recording server, driving the adapters' own loops over a
 * 50-tool catalog. Each test asserts the request bodies the SDK actually sent and that the
 * user's tool ran exactly as often as the exchange calls for.
 *
 * Sources of the scripted responses:
 * - Anthropic tool search page (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool):
 *   "Response format" (text → server_tool_use → tool_search_tool_result → text → tool_use, one
 *   response, stop_reason tool_use), the error codes, and "Tool reference 'unknown_tool' has no
 *   corresponding tool definition" (a 400 this library must never provoke).
 * - Anthropic server tools page (https://platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools):
 *   `pause_turn` — send the assistant content back as is to resume.
 * - OpenAI tool search guide (https://developers.openai.com/api/docs/guides/tools-tool-search):
 *   client execution (tool_search_call → tool_search_output), gpt-5.4 and later only.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import {
  AnthropicToolSearch,
  loadedByResponse,
  runAnthropicAgent,
  type AnthropicToolSearchOptions,
} from '../../src/providers/anthropic/index.js';
import {
  OpenAIChatToolSearch,
  OpenAIResponsesToolSearch,
  runChatAgent,
  runResponsesAgent,
} from '../../src/providers/openai/index.js';
import {
  message,
  serverSearchError,
  serverSearchResult,
  serverSearchUse,
  text,
  toolUse,
} from '../fixtures/wire/anthropic.js';
import { chatCall, completion, functionCall, outputText, response, toolSearchCall } from '../fixtures/wire/openai.js';
import { standInFormat, standInSearcher, startWireServer, type WireServer } from './helpers.js';
import { MARKER_NONCE } from '../../src/core/markers.js';

const CLAUDE = 'claude-sonnet-5-5';
const WEATHER_INPUT = { location: 'San Francisco', unit: 'fahrenheit' };

/** 50 tools: the docs' get_weather and search_files (deferred), one loaded local tool, 47 MCP tools. */
function makeCatalog(): { catalog: Catalog; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const ran = (name: string) => (input: Record<string, unknown>) => {
    calls.set(name, (calls.get(name) ?? 0) + 1);
    return `${name} ran with ${JSON.stringify(input)}`;
  };
  const catalog = new Catalog([
    { name: 'get_time', description: 'Current time', handler: ran('get_time') },
    {
      name: 'get_weather',
      description: 'Get the weather at a specific location',
      defer: true,
      handler: ran('get_weather'),
      inputSchema: {
        type: 'object',
        properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
        required: ['location'],
      },
    },
    {
      name: 'search_files',
      description: 'Search through files in the workspace',
      defer: true,
      handler: ran('search_files'),
    },
  ]);
  catalog.setServerTools('github', [
    { name: 'create_issue', description: 'Create a GitHub issue' },
    { name: 'list_repos', description: 'List repositories' },
  ]);
  catalog.setServerTools('slack', [{ name: 'send_message', description: 'Send a Slack message' }]);
  catalog.setServerTools(
    'misc',
    Array.from({ length: 44 }, (_, i) => ({
      name: `misc_tool_${i}`,
      description: `Miscellaneous operation number ${i}`,
    })),
  );
  return { catalog, calls };
}

let server: WireServer;
let anthropic: Anthropic;
let openai: OpenAI;
beforeEach(async () => {
  server = await startWireServer();
  anthropic = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
  openai = new OpenAI({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.close());

function anthropicSearch(catalog: Catalog, extra: Partial<AnthropicToolSearchOptions> = {}): AnthropicToolSearch {
  // The local server stands in for the first-party API: `platform` says so (B5 would otherwise treat 127.0.0.1 as a proxy).
  // These are F1's exchanges (`tool_reference`); tool changes (F9) have their own suite.
  return new AnthropicToolSearch({
    toolChanges: 'off',
    pool: catalog,
    searcher: standInSearcher,
    formatResult: standInFormat,
    option: 'always',
    platform: 'anthropic',
    ...extra,
  });
}

const ask = (content: string): MessageCreateParamsNonStreaming => ({
  model: CLAUDE,
  max_tokens: 1024,
  messages: [{ role: 'user', content }],
});
const bodies = (path: string) => server.to(path).map((r) => r.body);
const toolNames = (body: any): string[] => body.tools.map((t: any) => t.name);
const announcementOf = (body: any): string => body.system.at(-1).text;

describe.each(['regex', 'bm25'] as const)('F1 Anthropic server-side search (%s), as documented', (kind) => {
  const searchName = `tool_search_tool_${kind}`;
  const searchType = `tool_search_tool_${kind}_20251119`;

  it(`F1: search then call in ONE response — the found tool runs once (${kind})`, async () => {
    const { catalog, calls } = makeCatalog();
    // The docs' "Response format" example, block for block.
    const docsResponse = message(
      [
        text("I'll search for tools to help with the weather information."),
        serverSearchUse('srvtoolu_01ABC123', kind, 'weather'),
        serverSearchResult('srvtoolu_01ABC123', ['get_weather']),
        text('I found a weather tool. Let me get the weather for San Francisco.'),
        toolUse('toolu_01XYZ789', 'get_weather', WEATHER_INPUT),
      ],
      'tool_use',
    );
    server.script('/v1/messages', docsResponse, message([text('It is 62°F in San Francisco.')]));
    const run = await runAnthropicAgent({
      client: anthropic,
      toolSearch: anthropicSearch(catalog, { serverSearch: kind }),
      params: ask('What is the weather in San Francisco?'),
    });

    expect(calls.get('get_weather')).toBe(1);
    // F8: Anthropic's own search is reported as an infrastructure step, then the user's tool.
    expect(run.steps.map((s) => [s.name, s.isError, s.infrastructure, s.output])).toEqual([
      [searchName, false, true, 'Loaded: get_weather'],
      ['get_weather', false, false, `get_weather ran with ${JSON.stringify(WEATHER_INPUT)}`],
    ]);
    const [r1, r2] = bodies('/v1/messages');
    // Request 1: the server search tool (never deferred), no client tool_search, deferred tools flagged.
    expect(r1.tools.filter((t: any) => t.type === searchType)).toEqual([{ type: searchType, name: searchName }]);
    expect(toolNames(r1)).not.toContain('tool_search');
    expect(r1.tools.find((t: any) => t.name === 'get_weather').defer_loading).toBe(true);
    expect(r1.tools.find((t: any) => t.name === 'get_time').defer_loading).toBeUndefined();
    expect(r1.tools).toHaveLength(51);
    // The announcement names the tool actually sent and its query form, never select:.
    expect(announcementOf(r1)).toContain(searchName);
    expect(announcementOf(r1)).toContain(kind === 'regex' ? 'Python regular expression' : 'natural language');
    expect(announcementOf(r1)).not.toContain('select:');
    // First-party API with SDK 1.x: tool search is GA, no beta header.
    expect(server.to('/v1/messages')[0]!.headers['anthropic-beta']).toBeUndefined();
    // Request 2: the response goes back as is (server blocks kept, caller stripped), then the tool's result.
    expect(r2.messages[1].content.map((b: any) => b.type)).toEqual([
      'text',
      'server_tool_use',
      'tool_search_tool_result',
      'text',
      'tool_use',
    ]);
    expect(r2.messages[1].content[2].content.tool_references).toEqual([
      { type: 'tool_reference', tool_name: 'get_weather' },
    ]);
    expect(r2.messages[1].content[4].caller).toBeUndefined();
    expect(r2.messages[2].content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_01XYZ789',
        content: `get_weather ran with ${JSON.stringify(WEATHER_INPUT)}`,
      },
    ]);
    expect(r2.tools).toEqual(r1.tools); // the reference in the history expands the tool; the array stays put
  });

  it(`F1: pause_turn — the paused turn is sent back as is, then the found tool runs once (${kind})`, async () => {
    const { catalog, calls } = makeCatalog();
    const paused = message(
      [serverSearchUse('srvtoolu_1', kind, 'weather'), serverSearchResult('srvtoolu_1', ['get_weather'])],
      'pause_turn',
    );
    server.script(
      '/v1/messages',
      paused,
      message([toolUse('toolu_2', 'get_weather', WEATHER_INPUT)], 'tool_use'),
      message([text('Sunny.')]),
    );
    const run = await runAnthropicAgent({
      client: anthropic,
      toolSearch: anthropicSearch(catalog, { serverSearch: kind }),
      params: ask('Weather in SF?'),
    });

    expect(calls.get('get_weather')).toBe(1);
    expect(run.iterations).toBe(3);
    const [r1, r2, r3] = bodies('/v1/messages');
    expect(r2.messages).toHaveLength(2);
    expect(r2.messages[1]).toEqual({ role: 'assistant', content: JSON.parse(JSON.stringify(paused.content)) });
    expect(r2.tools).toEqual(r1.tools);
    expect(r3.messages.at(-1).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_2' });
    expect(r3.messages.at(-1).content[0].is_error).toBeUndefined();
  });

  it(`C8/F3: a server search that finds nothing, then a blind call — refused with this mode's query, found on the retry (${kind})`, async () => {
    const { catalog, calls } = makeCatalog();
    server.script(
      '/v1/messages',
      message(
        [
          serverSearchUse('srvtoolu_a', kind, 'forecast'),
          serverSearchResult('srvtoolu_a', []),
          toolUse('toolu_a', 'get_weather', WEATHER_INPUT),
        ],
        'tool_use',
      ),
      message(
        [
          serverSearchUse('srvtoolu_b', kind, 'weather'),
          serverSearchResult('srvtoolu_b', ['get_weather']),
          toolUse('toolu_b', 'get_weather', WEATHER_INPUT),
        ],
        'tool_use',
      ),
      message([text('Sunny.')]),
    );
    const run = await runAnthropicAgent({
      client: anthropic,
      toolSearch: anthropicSearch(catalog, { serverSearch: kind }),
      params: ask('Weather in SF?'),
    });

    expect(calls.get('get_weather')).toBe(1);
    expect(run.steps.map((s) => [s.name, s.isError])).toEqual([
      [searchName, false],
      ['get_weather', true],
      [searchName, false],
      ['get_weather', false],
    ]);
    expect(run.steps[0]!.output).toBe('No tools found.');
    const refusal = run.steps[1]!.output;
    expect(refusal).toContain(
      `Load it first with ${searchName}({"query": "${kind === 'regex' ? 'get_weather' : 'get weather'}"})`,
    );
    expect(refusal).not.toContain('select:');
    const [, r2] = bodies('/v1/messages');
    expect(r2.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_a', is_error: true });
    expect(r2.messages[1].content[1].content.tool_references).toEqual([]);
  });

  it(`F1: an in-band search error (200) is kept in the history and nothing runs (${kind})`, async () => {
    const { catalog, calls } = makeCatalog();
    server.script(
      '/v1/messages',
      message([
        serverSearchUse('srvtoolu_e', kind, '(unclosed'),
        serverSearchError('srvtoolu_e', 'invalid_tool_input', 'Malformed regex pattern'),
        text('The search failed.'),
      ]),
    );
    const run = await runAnthropicAgent({
      client: anthropic,
      toolSearch: anthropicSearch(catalog, { serverSearch: kind }),
      params: ask('Weather?'),
    });
    expect(run.steps).toEqual([
      expect.objectContaining({
        name: searchName,
        isError: true,
        infrastructure: true,
        output: 'invalid_tool_input: Malformed regex pattern',
      }),
    ]);
    expect(calls.size).toBe(0);
    expect(run.messages[1]!.content).toHaveLength(3);
  });

  it(`F2: a reference to a tool never sent is stripped before it can provoke the documented 400 (${kind})`, async () => {
    const { catalog, calls } = makeCatalog();
    // A history the caller brings (another session, a removed server): both reference forms name unknown_tool.
    const history: MessageParam[] = [
      { role: 'user', content: 'earlier' },
      {
        role: 'assistant',
        content: [
          {
            type: 'server_tool_use',
            id: 'srvtoolu_x',
            name: searchName as 'tool_search_tool_regex',
            input: { query: 'unknown' },
          },
          {
            type: 'tool_search_tool_result',
            tool_use_id: 'srvtoolu_x',
            content: {
              type: 'tool_search_tool_search_result',
              tool_references: [
                { type: 'tool_reference', tool_name: 'unknown_tool' },
                { type: 'tool_reference', tool_name: 'get_weather' },
              ],
            },
          },
          { type: 'tool_use', id: 'toolu_c', name: 'tool_search', input: { query: 'select:unknown_tool' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_c',
            content: [{ type: 'tool_reference', tool_name: 'unknown_tool' }],
          },
        ],
      },
      { role: 'assistant', content: [text('Done.') as any] },
      { role: 'user', content: 'now the weather' },
    ];
    // The same response also "finds" and calls a tool the request never had.
    server.script(
      '/v1/messages',
      message(
        [
          serverSearchUse('srvtoolu_y', kind, 'unknown'),
          serverSearchResult('srvtoolu_y', ['unknown_tool']),
          toolUse('toolu_y', 'unknown_tool', {}),
        ],
        'tool_use',
      ),
      message([text('ok')]),
    );
    const run = await runAnthropicAgent({
      client: anthropic,
      toolSearch: anthropicSearch(catalog, { serverSearch: kind }),
      params: { model: CLAUDE, max_tokens: 1024, messages: history },
    });
    const [r1, r2] = bodies('/v1/messages');
    for (const body of [r1, r2]) {
      const refs = JSON.stringify(body.messages).match(/"tool_name":"[^"]+"/g) ?? [];
      expect(refs).not.toContain('"tool_name":"unknown_tool"');
      expect(toolNames(body)).not.toContain('unknown_tool');
    }
    expect(JSON.stringify(r1.messages)).toContain('"tool_name":"get_weather"');
    expect(r1.messages[2].content[0].content).toEqual([{ type: 'text', text: 'No longer available: unknown_tool.' }]);
    // The call of the never-sent tool is answered with an error; nothing of the user's ran.
    expect(run.steps.map((s) => [s.name, s.isError])).toEqual([
      [searchName, false],
      ['unknown_tool', true],
    ]);
    expect(calls.size).toBe(0);
  });
});

describe('F1 your own Anthropic loop', () => {
  it('F1: runToolUse(block, plan, response.content) honours the same-response references; loadedByResponse reads them', async () => {
    const { catalog, calls } = makeCatalog();
    const toolSearch = anthropicSearch(catalog, { serverSearch: 'regex' });
    server.script(
      '/v1/messages',
      message(
        [
          serverSearchUse('srvtoolu_o', 'regex', 'weather'),
          serverSearchResult('srvtoolu_o', ['get_weather']),
          toolUse('toolu_o', 'get_weather', WEATHER_INPUT),
        ],
        'tool_use',
      ),
    );
    const prepared = await toolSearch.prepare(ask('Weather?'));
    const response = await anthropic.messages.create(
      prepared.params,
      prepared.headers ? { headers: prepared.headers } : {},
    );
    expect([...loadedByResponse(response.content)]).toEqual(['get_weather']);
    const use = response.content.find((b) => b.type === 'tool_use')!;
    if (use.type !== 'tool_use') throw new Error('no tool_use');
    // Without the response, the plan made before it still sees get_weather as not loaded.
    const without = await toolSearch.runToolUse(use, prepared.plan);
    expect(without.result.is_error).toBe(true);
    expect(without.output).toContain('tool_search_tool_regex({"query": "get_weather"})');
    const run = await toolSearch.runToolUse(use, prepared.plan, response.content);
    expect(run.result).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_o',
      content: `get_weather ran with ${JSON.stringify(WEATHER_INPUT)}`,
    });
    expect(calls.get('get_weather')).toBe(1);
  });
});

describe('F1 Anthropic client-side search (tool_search → tool_reference), same exchanges', () => {
  it('F1/F3: search and call in one response — the call waits for the reference, then runs once', async () => {
    const { catalog, calls } = makeCatalog();
    server.script(
      '/v1/messages',
      message(
        [toolUse('t1', 'tool_search', { query: 'select:get_weather' }), toolUse('t2', 'get_weather', WEATHER_INPUT)],
        'tool_use',
      ),
      message([toolUse('t3', 'get_weather', WEATHER_INPUT)], 'tool_use'),
      message([text('Sunny.')]),
    );
    const run = await runAnthropicAgent({
      client: anthropic,
      toolSearch: anthropicSearch(catalog),
      params: ask('Weather in SF?'),
    });

    expect(calls.get('get_weather')).toBe(1);
    expect(run.steps.map((s) => [s.name, s.isError, s.infrastructure])).toEqual([
      ['tool_search', false, true],
      ['get_weather', true, false],
      ['get_weather', false, false],
    ]);
    expect(run.steps[1]!.output).toContain('tool_search({"query": "select:get_weather"})');
    const [r1, r2] = bodies('/v1/messages');
    expect(toolNames(r1)).toContain('tool_search');
    expect(r1.tools.some((t: any) => String(t.type).startsWith('tool_search_tool_'))).toBe(false);
    expect(announcementOf(r1)).toContain('select:<name>');
    expect(r2.messages[2].content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 't1',
      content: [{ type: 'tool_reference', tool_name: 'get_weather' }],
    });
  });

  it('F3: justInTime runs the blind call once and loads it with a reference', async () => {
    const { catalog, calls } = makeCatalog();
    server.script(
      '/v1/messages',
      message([toolUse('t1', 'get_weather', WEATHER_INPUT)], 'tool_use'),
      message([text('Sunny.')]),
    );
    await runAnthropicAgent({
      client: anthropic,
      toolSearch: anthropicSearch(catalog, { justInTime: true }),
      params: ask('Weather?'),
    });
    expect(calls.get('get_weather')).toBe(1);
    const [, r2] = bodies('/v1/messages');
    expect(r2.messages[2].content[0].content).toContainEqual({ type: 'tool_reference', tool_name: 'get_weather' });
  });
});

describe('Beta headers per platform (tool search page: Bedrock/Vertex name tool-search-tool-2025-10-19)', () => {
  const once = async (extra: Partial<AnthropicToolSearchOptions>) => {
    server.script('/v1/messages', message([text('hi')]));
    await runAnthropicAgent({
      client: anthropic,
      toolSearch: anthropicSearch(makeCatalog().catalog, { serverSearch: 'regex', ...extra }),
      params: ask('hi'),
    });
    return server.to('/v1/messages').at(-1)!;
  };
  it('Vertex and Bedrock get their beta; first-party and Foundry none; `betas` overrides; B2 strips it', async () => {
    expect((await once({ platform: 'vertex' })).headers['anthropic-beta']).toBe('tool-search-tool-2025-10-19');
    expect((await once({ platform: 'bedrock' })).headers['anthropic-beta']).toBe('tool-search-tool-2025-10-19');
    expect((await once({ platform: 'foundry' })).headers['anthropic-beta']).toBeUndefined();
    expect(
      (await once({ platform: 'anthropic', betas: ['advanced-tool-use-2025-11-20', 'mcp-client-2025-11-20'] })).headers[
        'anthropic-beta'
      ],
    ).toBe('advanced-tool-use-2025-11-20,mcp-client-2025-11-20');
    const killed = await once({ platform: 'vertex', killSwitch: true });
    expect(killed.headers['anthropic-beta']).toBeUndefined();
    expect(JSON.stringify(killed.body)).not.toMatch(/tool_search|defer_loading/);
  });
  it('B4: an excluded model (haiku) with serverSearch gets client-side expansion — tool_search, no server tool, no beta', async () => {
    server.script('/v1/messages', message([text('hi')]));
    const toolSearch = anthropicSearch(makeCatalog().catalog, { serverSearch: 'bm25', platform: 'vertex' });
    await runAnthropicAgent({ client: anthropic, toolSearch, params: { ...ask('hi'), model: 'claude-haiku-4-5' } });
    const sent = server.to('/v1/messages').at(-1)!;
    expect(sent.headers['anthropic-beta']).toBeUndefined();
    expect(JSON.stringify(sent.body)).not.toMatch(/tool_search_tool|defer_loading|tool_reference/);
    expect(toolNames(sent.body)).toEqual(['get_time', 'tool_search']);
    expect(announcementOf(sent.body)).toContain('select:');
  });
  it('B5: an unknown host is a proxy — client-side expansion, no native fields, no beta', async () => {
    const proxied = await once({ platform: undefined, option: undefined, baseURL: server.url });
    expect(proxied.headers['anthropic-beta']).toBeUndefined();
    expect(JSON.stringify(proxied.body)).not.toMatch(/tool_search_tool|defer_loading|tool_reference/);
    expect(toolNames(proxied.body)).toContain('tool_search');
    expect(announcementOf(proxied.body)).toContain('select:');
  });
});

describe('F5/B4 OpenAI Responses: tool_search only where the guide allows it', () => {
  const responsesSearch = (catalog: Catalog) =>
    new OpenAIResponsesToolSearch({
      pool: catalog,
      searcher: standInSearcher,
      formatResult: standInFormat,
      option: 'always',
    });
  const hasToolSearchType = (tools: any[]) => tools.some((t) => t.type === 'tool_search');
  const hasDeferLoading = (body: any) => JSON.stringify(body.tools).includes('defer_loading');

  it('F5: gpt-5.4 — tool_search(client) → tool_search_output → call, the tool runs once', async () => {
    const { catalog, calls } = makeCatalog();
    server.script(
      '/responses',
      response([toolSearchCall('s1', { query: 'select:get_weather' })]),
      response([functionCall('c1', 'get_weather', WEATHER_INPUT)]),
      response([outputText('Sunny.')]),
    );
    await runResponsesAgent({
      client: openai,
      toolSearch: responsesSearch(catalog),
      params: { model: 'gpt-5.4', input: 'Weather?' },
    });
    expect(calls.get('get_weather')).toBe(1);
    const [r1, r2] = bodies('/responses');
    expect(r1.tools[0]).toMatchObject({ type: 'tool_search', execution: 'client' });
    expect(hasDeferLoading(r1)).toBe(true);
    expect(r2.input.find((i: any) => i.type === 'tool_search_output')).toMatchObject({
      call_id: 's1',
      tools: [expect.objectContaining({ name: 'get_weather' })],
    });
  });

  it.each(['gpt-5', 'gpt-4.1', 'o3'])(
    'B4: %s is excluded by the guide — no tool_search, no defer_loading; client-side expansion runs the tool once',
    async (model) => {
      const { catalog, calls } = makeCatalog();
      server.script(
        '/responses',
        response([functionCall('f1', 'tool_search', { query: 'select:get_weather' })]),
        response([functionCall('f2', 'get_weather', WEATHER_INPUT)]),
        response([outputText('Sunny.')]),
      );
      // The caller's own tool_search and deferred function are stripped too.
      const callerTools = [
        { type: 'tool_search' as const },
        { type: 'function' as const, name: 'mine', parameters: {}, strict: false, defer_loading: true },
      ];
      const run = await runResponsesAgent({
        client: openai,
        toolSearch: responsesSearch(catalog),
        params: { model, input: 'Weather?', tools: callerTools },
      });
      expect(calls.get('get_weather')).toBe(1);
      expect(run.steps.map((s) => [s.name, s.infrastructure, s.isError])).toEqual([
        ['tool_search', true, false],
        ['get_weather', false, false],
      ]);
      const [r1, r2] = bodies('/responses');
      for (const body of [r1, r2]) {
        expect(hasToolSearchType(body.tools)).toBe(false);
        expect(hasDeferLoading(body)).toBe(false);
      }
      const fnNames = (body: any) => body.tools.map((t: any) => t.name);
      expect(fnNames(r1)).toEqual(['mine', 'get_time', 'tool_search']);
      expect(fnNames(r2)).toEqual(['mine', 'get_time', 'tool_search', 'get_weather']);
      expect(r2.input.at(-1)).toMatchObject({
        type: 'function_call_output',
        call_id: 'f1',
        output: expect.stringContaining(`<tools-loaded n="${MARKER_NONCE}">\nget_weather\n</tools-loaded>`),
      });
    },
  );

  it('C8: a client search that finds nothing answers an empty tool_search_output plus a developer note', async () => {
    const { catalog, calls } = makeCatalog();
    server.script(
      '/responses',
      response([toolSearchCall('s1', { query: 'teleport' })]),
      response([outputText('No such tool.')]),
    );
    await runResponsesAgent({
      client: openai,
      toolSearch: responsesSearch(catalog),
      params: { model: 'gpt-5.4', input: 'Teleport me' },
    });
    const [, r2] = bodies('/responses');
    expect(r2.input.slice(-2)).toEqual([
      { type: 'tool_search_output', execution: 'client', status: 'completed', call_id: 's1', tools: [] },
      { type: 'message', role: 'developer', content: 'No matching deferred tools found. 49 deferred tools exist.' },
    ]);
    expect(calls.size).toBe(0);
  });

  it('F5: a tool_search_output naming a tool never sent is stripped from the replayed input', async () => {
    const { catalog } = makeCatalog();
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'earlier' },
      { type: 'tool_search_call', call_id: 's0', arguments: {}, execution: 'client', status: 'completed' },
      {
        type: 'tool_search_output',
        call_id: 's0',
        execution: 'client',
        status: 'completed',
        tools: [
          { type: 'function', name: 'unknown_tool', parameters: {}, strict: false },
          { type: 'function', name: 'get_weather', parameters: {}, strict: false },
        ],
      },
      { role: 'user', content: 'weather?' },
    ];
    server.script('/responses', response([outputText('ok')]));
    await runResponsesAgent({
      client: openai,
      toolSearch: responsesSearch(catalog),
      params: { model: 'gpt-5.4', input },
    });
    const [r1] = bodies('/responses');
    expect(JSON.stringify(r1)).not.toContain('unknown_tool');
    expect(r1.input[2].tools.map((t: any) => t.name)).toEqual(['get_weather']);
  });
});

describe('F4 Chat Completions: search and call in one message', () => {
  it('F3/F4: the call waits for the search to load its schema, then runs once', async () => {
    const { catalog, calls } = makeCatalog();
    server.script(
      '/chat/completions',
      completion(null, [
        chatCall('a', 'tool_search', { query: 'select:get_weather' }),
        chatCall('b', 'get_weather', WEATHER_INPUT),
      ]),
      completion(null, [chatCall('c', 'get_weather', WEATHER_INPUT)]),
      completion('Sunny.'),
    );
    const run = await runChatAgent({
      client: openai,
      toolSearch: new OpenAIChatToolSearch({
        pool: catalog,
        searcher: standInSearcher,
        formatResult: standInFormat,
        option: 'always',
      }),
      params: { model: 'local-model', messages: [{ role: 'user', content: 'Weather?' }] },
    });
    expect(calls.get('get_weather')).toBe(1);
    expect(run.steps.map((s) => s.isError)).toEqual([false, true, false]);
    expect(run.steps[1]!.output).toContain('tool_search({"query": "select:get_weather"})');
    const [r1, r2] = bodies('/chat/completions');
    expect(r1.tools.map((t: any) => t.function.name)).toEqual(['get_time', 'tool_search']);
    expect(r2.tools.map((t: any) => t.function.name)).toEqual(['get_time', 'tool_search', 'get_weather']);
  });
});

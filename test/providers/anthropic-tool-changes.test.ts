/**
 * F9 — Anthropic's mid-conversation tool changes, by value, with the real `@anthropic-ai/sdk`
 * against the local server that answers in the documented shapes (the wire tests' server):
 * - a loaded tool is added where it was loaded (a `role: "system"` message after the search's
 *   result), `tools` never changes and holds no deferred catalog, the beta header goes with it;
 * - a bounded working set withdraws tools the same way (`tool_removal`);
 * - a server reconnecting changes no earlier turn, in this mode and in the `tool_reference` one;
 * - bad input: a history holding additions the request cannot keep as they are, and an endpoint
 *   refusing the beta with a 400: the documented fallback, and one line.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAnthropicHistory } from '../../src/core/anthropic-history.js';
import type { Catalog } from '../../src/core/catalog.js';
import { compactionBoundary } from '../../src/core/compaction.js';
import {
  AnthropicToolSearch,
  runAnthropicAgent,
  TOOL_CHANGES_BETA,
  type AnthropicToolSearchOptions,
} from '../../src/providers/anthropic/index.js';
import type { Logger } from '../../src/util/log.js';
import { message, text, toolUse } from '../fixtures/wire/anthropic.js';
import {
  SAMPLE_GITHUB_TOOLS,
  sampleCatalog,
  standInSearcher,
  startWireServer,
  withStatus,
  type WireServer,
} from './helpers.js';

const MODEL = 'claude-sonnet-5-5';

const GITHUB = [...SAMPLE_GITHUB_TOOLS, { name: 'close_issue', description: 'Close an issue' }];
const makeCatalog = () => sampleCatalog(GITHUB);

let server: WireServer;
let client: Anthropic;
let lines: string[];
const logger: Logger = {
  error: (m) => lines.push(m),
  warn: (m) => lines.push(m),
  info: () => undefined,
  debug: () => undefined,
};
beforeEach(async () => {
  server = await startWireServer();
  client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
  lines = [];
});
afterEach(() => server.close());

/** The local server stands in for the Claude API (its 127.0.0.1 URL would read as a proxy). */
function toolSearch(catalog: Catalog, extra: Partial<AnthropicToolSearchOptions> = {}): AnthropicToolSearch {
  return new AnthropicToolSearch({
    pool: catalog,
    searcher: standInSearcher,
    option: 'always',
    platform: 'anthropic',
    logger,
    executor: ({ name }) => `ran ${name}`,
    ...extra,
  });
}

const params = (messages: MessageParam[]): MessageCreateParamsNonStreaming => ({
  model: MODEL,
  max_tokens: 512,
  system: 'You are helpful.',
  messages,
});

/** "file a bug" through the real loop, one turn. */
const fileABug = (ts: AnthropicToolSearch) =>
  runAnthropicAgent({ client, toolSearch: ts, params: params([{ role: 'user', content: 'file a bug' }]) });

/** One user turn through the real loop; returns the conversation after it. */
async function turn(ts: AnthropicToolSearch, history: MessageParam[], user: string): Promise<MessageParam[]> {
  const run = await runAnthropicAgent({
    client,
    toolSearch: ts,
    params: params([...history, { role: 'user', content: user }]),
  });
  return run.messages;
}

const search = (id: string, query: string) => message([toolUse(id, 'tool_search', { query })], 'tool_use');
const call = (id: string, name: string) => message([toolUse(id, name, {})], 'tool_use');
const bodies = () => server.to('/v1/messages').map((r) => r.body);

/** Request `next` begins with request `previous`, block for block (the cache's exact-prefix rule). */
function beginsWith(next: any, previous: any): boolean {
  const blocks = (body: any) => [
    ...(body.tools ?? []).map((t: any) => JSON.stringify(t)),
    JSON.stringify(body.system),
    ...body.messages.flatMap((m: any) =>
      typeof m.content === 'string'
        ? [`${m.role}:${m.content}`]
        : m.content.map((b: any) => `${m.role}:${JSON.stringify(b)}`),
    ),
  ];
  const a = blocks(previous);
  const b = blocks(next);
  return a.every((block, i) => b[i] === block);
}

describe('F9 tool changes by value', () => {
  it('F9: a loaded tool is added where it was loaded; tools never change and hold no deferred catalog', async () => {
    const ts = toolSearch(makeCatalog());
    server.script(
      '/v1/messages',
      search('tu1', 'create issue'),
      call('tu2', 'mcp__github__create_issue'),
      message([text('Done.')]),
    );
    const run = await fileABug(ts);
    expect(run.response.content).toEqual([text('Done.')]);
    const [r1, r2, r3] = bodies();
    const requests = server.to('/v1/messages');
    for (const r of requests) expect(r.headers['anthropic-beta']).toContain(TOOL_CHANGES_BETA);
    // No deferred catalog: the caller's and the pool's non-deferred tools and the search tool.
    expect(r1.tools.map((t: any) => t.name)).toEqual(['get_time', 'tool_search']);
    expect(JSON.stringify(r1)).not.toContain('defer_loading');
    expect(r2.tools).toEqual(r1.tools);
    expect(r3.tools).toEqual(r1.tools);
    // The search's result, then the system message adding the tool by value.
    expect(r2.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'tu1' });
    expect(r2.messages[2].content[0].content).toContain('Loaded: mcp__github__create_issue.');
    expect(r2.messages[3]).toEqual({
      role: 'system',
      content: [
        {
          type: 'tool_addition',
          tool: {
            type: 'tool_definition',
            definition: {
              name: 'mcp__github__create_issue',
              description: 'Create a GitHub issue',
              input_schema: { type: 'object', properties: { title: { type: 'string' } } },
            },
          },
        },
      ],
    });
    // The call ran (the tool counts as loaded), and each request begins with the one before.
    expect(r3.messages[5].content[0]).toMatchObject({ tool_use_id: 'tu2', content: 'ran mcp__github__create_issue' });
    expect(beginsWith(r2, r1)).toBe(true);
    expect(beginsWith(r3, r2)).toBe(true);
    expect(lines).toEqual([]);
  });

  it('F9: a caller that stores what it sent gets no second addition; its own system text does not hide ours', async () => {
    const ts = toolSearch(makeCatalog());
    server.script('/v1/messages', search('tu1', 'select:mcp__github__create_issue'), message([text('Loaded.')]));
    const history = await turn(ts, [], 'load it');
    const sent = (await ts.prepare(params(history))).params.messages;
    const again = await ts.prepare(params(sent));
    expect(JSON.stringify(again.params.messages).split('"tool_addition"')).toHaveLength(2);
    expect(again.params.messages).toEqual(sent);
    // A text-only system message of the caller's right after the search's result.
    const withNote = [...history.slice(0, 3), { role: 'system', content: 'Be brief.' }, ...history.slice(3)];
    const noted = (await ts.prepare(params(withNote as unknown as MessageParam[]))).params.messages as any[];
    expect(noted[3].content[0].type).toBe('tool_addition');
    expect(noted[4]).toEqual({ role: 'system', content: 'Be brief.' });
  });

  it('F9/D2: after a compaction, a tool known only from the snapshot goes in tools, loaded', async () => {
    const ts = toolSearch(makeCatalog());
    server.script('/v1/messages', search('tu1', 'select:mcp__github__create_issue'), message([text('Loaded.')]));
    const history = await turn(ts, [], 'load it');
    const summary = compactionBoundary('We loaded the issue tool.', readAnthropicHistory(history));
    const prepared = await ts.prepare(params([{ role: 'user', content: `${summary}\n\nfile it` }]));
    expect(prepared.loading).toBe('tool-changes');
    expect(prepared.plan.discovered).toEqual(['mcp__github__create_issue']);
    expect(prepared.params.tools!.map((t) => ('name' in t ? t.name : ''))).toContain('mcp__github__create_issue');
    expect(JSON.stringify(prepared.params.messages)).not.toContain('tool_addition');
  });

  it('F9/E5: the working set withdraws the tools used longest ago with tool_removal, at the search that lets them go', async () => {
    const ts = toolSearch(makeCatalog(), { workingSet: 3 });
    let history: MessageParam[] = [];
    const tools = ['mcp__github__create_issue', 'mcp__github__list_repos', 'mcp__github__close_issue'];
    for (const [i, name] of tools.entries()) {
      server.script('/v1/messages', search(`s${i}`, `select:${name}`), call(`c${i}`, name), message([text('ok')]));
      history = await turn(ts, history, `use ${name}`);
    }
    server.script('/v1/messages', search('s3', 'select:mcp__slack__send_message'), message([text('ok')]));
    history = await turn(ts, history, 'send a message');
    const last = bodies().at(-1);
    const changes = last.messages.at(-1);
    expect(changes.role).toBe('system');
    expect(changes.content).toEqual([
      { type: 'tool_removal', tool: { type: 'tool_reference', name: 'mcp__github__create_issue' } },
      { type: 'tool_removal', tool: { type: 'tool_reference', name: 'mcp__github__list_repos' } },
      expect.objectContaining({ type: 'tool_addition' }),
    ]);
    expect(changes.content[2].tool.definition.name).toBe('mcp__slack__send_message');
    // The earlier additions stay where they were: nothing before is rewritten.
    const all = bodies();
    for (let i = 1; i < all.length; i++) expect(beginsWith(all[i], all[i - 1]), `request ${i + 1}`).toBe(true);
    // An unloaded tool is not loaded any more: calling it asks for a search first.
    const prepared = await ts.prepare(params(history));
    expect(prepared.plan.discovered).not.toContain('mcp__github__create_issue');
    expect(prepared.plan.discovered).toContain('mcp__slack__send_message');
  });

  it('F9: a server that connects late changes no earlier turn, and (by value) not the tools either', async () => {
    for (const toolChanges of ['auto', 'off'] as const) {
      const catalog = makeCatalog();
      catalog.markPending('jira');
      const ts = toolSearch(catalog, { toolChanges });
      server.script('/v1/messages', search('tu1', 'select:mcp__github__create_issue'), message([text('Loaded.')]));
      const history = await turn(ts, [], 'load the issue tool');
      catalog.setServerTools('jira', [{ name: 'create_ticket', description: 'Create a Jira ticket' }]);
      server.script('/v1/messages', message([text('Hi.')]));
      await turn(ts, history, 'anything new?');
      const [, before, after] = bodies();
      expect(JSON.stringify(after.messages).startsWith(JSON.stringify(before.messages).slice(0, -1))).toBe(true);
      if (toolChanges === 'auto') expect(after.tools).toEqual(before.tools);
      // The announcement names the new server's tools (the head of the prompt: the one change).
      expect(JSON.stringify(after.system)).toContain('create_ticket');
      server.requests.splice(0);
    }
  });

  it('F9/F2: a server that reconnects changes no earlier turn, by value and by reference', async () => {
    for (const toolChanges of ['auto', 'off'] as const) {
      const catalog = makeCatalog();
      const ts = toolSearch(catalog, { toolChanges });
      server.script('/v1/messages', search('tu1', 'select:mcp__github__create_issue'), message([text('Loaded.')]));
      let history = await turn(ts, [], 'load the issue tool');
      // github drops and is reconnecting: its tools leave the catalog, the server is pending.
      catalog.removeServer('github', { pending: true });
      expect(catalog.has('mcp__github__create_issue')).toBe(false);
      server.script('/v1/messages', message([text('Still here.')]));
      history = await turn(ts, history, 'anything new?');
      // It is back.
      catalog.setServerTools('github', GITHUB);
      server.script('/v1/messages', message([text('Back.')]));
      await turn(ts, history, 'and now?');
      const all = bodies();
      for (let i = 1; i < all.length; i++)
        expect(beginsWith(all[i], all[i - 1]), `${toolChanges}: request ${i + 1}`).toBe(true);
      const during = all.at(-2);
      const wire = JSON.stringify(during);
      if (toolChanges === 'off') {
        // The reference stays, and so does the tool it names (still declared, deferred).
        expect(wire).toContain('"tool_name":"mcp__github__create_issue"');
        expect(during.tools.some((t: any) => t.name === 'mcp__github__create_issue' && t.defer_loading)).toBe(true);
      } else expect(wire).toContain('"type":"tool_addition"');
      server.requests.splice(0);
    }
  });

  it('F9: a history adding tools by reference the request does not declare: defined by value, or left out; one line', async () => {
    const ts = toolSearch(makeCatalog());
    const byValueGone = {
      type: 'tool_addition',
      tool: { type: 'tool_definition', definition: { name: 'old_tool', input_schema: { type: 'object' } } },
    };
    const history = [
      { role: 'user', content: 'hello' },
      {
        role: 'system',
        content: [
          byValueGone,
          { type: 'tool_addition', tool: { type: 'tool_reference', name: 'mcp__slack__send_message' } },
          { type: 'tool_addition', tool: { type: 'tool_reference', name: 'mcp__gone__tool' } },
        ],
      },
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: 'send it' },
    ] as unknown as MessageParam[];
    const prepared = await ts.prepare(params(history));
    const system = prepared.params.messages[1] as any;
    // A definition by value goes as sent (valid as it is; earlier turns stay); a reference the
    // request can resolve from the pool is defined by value; one it cannot is left out.
    expect(system.content[0]).toEqual(byValueGone);
    expect(system.content[1].tool).toMatchObject({
      type: 'tool_definition',
      definition: { name: 'mcp__slack__send_message' },
    });
    expect(system.content).toHaveLength(2);
    expect(prepared.plan.discovered).toContain('mcp__slack__send_message');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('mcp__slack__send_message defined by value');
    expect(lines[0]).toContain('mcp__gone__tool left out');
    // Said once per adapter, not per request.
    await ts.prepare(params(history));
    expect(lines).toHaveLength(1);
    // The model may still call the tool the history defined: it is told the tool is gone.
    const gone = await ts.runToolUse({ id: 'x', name: 'old_tool', input: {} }, prepared.plan);
    expect(gone.result.is_error).toBe(true);
    expect(gone.output).toContain('"old_tool" is no longer available');
  });

  it('F9: a loaded tool whose server is gone for good, and no earlier request defined: not added, one line', async () => {
    const catalog = makeCatalog();
    server.script('/v1/messages', search('tu1', 'select:mcp__github__create_issue'), message([text('Loaded.')]));
    const history = await turn(toolSearch(catalog), [], 'load it');
    catalog.removeServer('github');
    // A fresh adapter (another process would not read the marker at all): nothing to define it from.
    const fresh = toolSearch(catalog);
    const prepared = await fresh.prepare(params([...history, { role: 'user', content: 'file it' }]));
    expect(JSON.stringify(prepared.params.messages)).not.toContain('tool_addition');
    expect(lines).toEqual([
      expect.stringContaining('the history loaded mcp__github__create_issue, which the pool no longer has'),
    ]);
    const call = await fresh.runToolUse({ id: 'y', name: 'mcp__github__create_issue', input: {} }, prepared.plan);
    expect(call.output).toContain('no longer available');
  });

  it('F9: a 400 refusing the beta → defer_loading + tool_reference from then on, said in one line', async () => {
    const ts = toolSearch(makeCatalog());
    server.script(
      '/v1/messages',
      withStatus(400, {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: `Unexpected value(s) \`${TOOL_CHANGES_BETA}\` for the \`anthropic-beta\` header.`,
        },
      }),
      search('tu1', 'select:mcp__github__create_issue'),
      call('tu2', 'mcp__github__create_issue'),
      message([text('Done.')]),
    );
    const run = await fileABug(ts);
    expect(run.response.content).toEqual([text('Done.')]);
    const requests = server.to('/v1/messages');
    expect(requests[0]!.headers['anthropic-beta']).toContain(TOOL_CHANGES_BETA);
    for (const r of requests.slice(1)) {
      expect(r.headers['anthropic-beta'] ?? '').not.toContain(TOOL_CHANGES_BETA);
      expect(r.body.tools.some((t: any) => t.defer_loading === true)).toBe(true);
    }
    expect(JSON.stringify(requests[2]!.body)).toContain('"type":"tool_reference"');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/refused tool changes for claude-sonnet-5-5 .*defer_loading \+ tool_reference/);
  });

  it('F9: where the table says no (Sonnet 5, Bedrock), the request takes defer_loading + tool_reference and carries no tool changes', async () => {
    const catalog = makeCatalog();
    const ts = toolSearch(catalog);
    server.script('/v1/messages', search('tu1', 'select:mcp__github__create_issue'), message([text('Loaded.')]));
    const history = await turn(ts, [], 'load it');
    // The history now holds the by-value addition's record; a switch to Sonnet 5 strips it and
    // sends the loaded tool the way that request loads tools.
    const sonnet5 = await ts.prepare({ ...params(history), model: 'claude-sonnet-5' });
    expect(sonnet5.loading).toBe('native');
    expect(JSON.stringify(sonnet5.params)).not.toContain('tool_addition');
    expect(sonnet5.params.messages.some((m) => (m as { role: string }).role === 'system')).toBe(false);
    expect(sonnet5.plan.discovered).toContain('mcp__github__create_issue');
    const bedrock = await toolSearch(catalog, { platform: 'bedrock' }).prepare(params(history));
    expect(bedrock.loading).toBe('native');
    expect(bedrock.headers?.['anthropic-beta']).not.toContain(TOOL_CHANGES_BETA);
  });
});

/**
 * E5 in the library: the OpenAI Chat adapter's client-side expansion appends loaded tools in load
 * order (each request's tools keep the previous request's as their prefix), answers searches in
 * compact lines with the session policy, and offers the fixed-list mode (tools never change, calls
 * through call_tool). The real OpenAI SDK against a local wire server; the real searcher.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { OpenAIChatToolSearch, runChatAgent } from '../../src/providers/openai/index.js';
import { AISdkToolSearch } from '../../src/providers/ai-sdk/index.js';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { chatCall, completion } from '../fixtures/wire/openai.js';
import { startWireServer, type WireServer } from './helpers.js';

function makeCatalog(): Catalog {
  const catalog = new Catalog([{ name: 'get_time', description: 'Current time', handler: () => '12:00' }]);
  catalog.setServerTools('github', [
    {
      name: 'create_issue',
      description: 'Create a GitHub issue in a repository. Needs a title.',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    },
    { name: 'list_repos', description: 'List the repositories of a user.' },
    { name: 'close_issue', description: 'Close a GitHub issue.' },
  ]);
  catalog.setServerTools('slack', [
    { name: 'send_message', description: 'Send a message to a Slack channel.' },
    { name: 'list_channels', description: 'List the Slack channels.' },
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

const fnNames = (body: any): string[] => body.tools.map((t: any) => t.function.name);
const toolMessages = (body: any): string[] =>
  body.messages.filter((m: any) => m.role === 'tool').map((m: any) => String(m.content));

describe('E5 OpenAI Chat client-side expansion', () => {
  it('loads only what the search is sure of, answers in compact lines, and appends in load order', async () => {
    const ts = new OpenAIChatToolSearch({ pool: makeCatalog(), option: 'always', executor });
    server.script(
      '/chat/completions',
      completion(null, [chatCall('a', 'tool_search', { query: 'send slack message' })]),
      completion(null, [chatCall('b', 'tool_search', { query: 'create github issue' })]),
      completion(null, [chatCall('c', 'mcp__github__create_issue', { title: 'Bug' })]),
      completion('Done.'),
    );
    await runChatAgent({
      client,
      toolSearch: ts,
      params: { model: 'local-model', messages: [{ role: 'user', content: 'tell slack, then file a bug' }] },
    });
    const bodies = server.to('/chat/completions').map((r) => r.body);
    const lists = bodies.map(fnNames);
    for (let i = 1; i < lists.length; i++) expect(lists[i]!.slice(0, lists[i - 1]!.length)).toEqual(lists[i - 1]);
    expect(lists.at(-1)).toEqual(['get_time', 'tool_search', 'mcp__slack__send_message', 'mcp__github__create_issue']);
    const answer = toolMessages(bodies[2])[1]!;
    expect(answer).toMatch(/^- mcp__github__create_issue\(title: string\) — Create a GitHub issue in a repository\.$/m);
    expect(answer).toMatch(/Also found, not loaded/);
    expect(answer).not.toContain('"inputSchema"');
  });

  it('fixed list: the tools never change; the best hit comes in full and runs through call_tool', async () => {
    const ts = new OpenAIChatToolSearch({ pool: makeCatalog(), option: 'always', executor, toolList: 'fixed' });
    server.script(
      '/chat/completions',
      completion(null, [chatCall('a', 'tool_search', { query: 'create github issue' })]),
      completion(null, [
        chatCall('b', 'call_tool', { name: 'mcp__github__create_issue', arguments: { title: 'Bug' } }),
      ]),
      completion('Done.'),
    );
    await runChatAgent({
      client,
      toolSearch: ts,
      params: { model: 'local-model', messages: [{ role: 'user', content: 'file a bug' }] },
    });
    const bodies = server.to('/chat/completions').map((r) => r.body);
    for (const body of bodies) expect(fnNames(body)).toEqual(['get_time', 'tool_search', 'call_tool']);
    const [answer, ran] = toolMessages(bodies[2]);
    const full = answer!.split('\n').filter((l) => l.startsWith('{'));
    expect(full.map((l) => JSON.parse(l).name)).toEqual(['mcp__github__create_issue']);
    expect(ran).toBe('ran mcp__github__create_issue {"title":"Bug"}');
  });
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const step = (content: LanguageModelV3GenerateResult['content'], tools = true): LanguageModelV3GenerateResult => ({
  content,
  finishReason: tools ? { unified: 'tool-calls', raw: 'tool_use' } : { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});

describe('E5 Vercel AI SDK', () => {
  it('fixed list: activeTools never change; call_tool runs the found tool', async () => {
    const ts = new AISdkToolSearch({ pool: makeCatalog(), option: 'always', executor, toolList: 'fixed' });
    const model = new MockLanguageModelV3({
      doGenerate: [
        step([
          { type: 'tool-call', toolCallId: 'a', toolName: 'tool_search', input: '{"query":"create github issue"}' },
        ]),
        step([
          {
            type: 'tool-call',
            toolCallId: 'b',
            toolName: 'call_tool',
            input: JSON.stringify({ name: 'mcp__github__create_issue', arguments: { title: 'Bug' } }),
          },
        ]),
        step([{ type: 'text', text: 'Done.' }], false),
      ],
    });
    const result = await generateText({
      model,
      tools: ts.tools,
      prepareStep: ts.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: 'file a bug',
    });
    const names = model.doGenerateCalls.map((c) =>
      ((c as any).tools ?? []).map((t: { name: string }) => t.name).sort(),
    );
    for (const n of names) expect(n).toEqual(['call_tool', 'get_time', 'tool_search']);
    expect(result.steps[1]!.toolResults[0]!.output).toBe('ran mcp__github__create_issue {"title":"Bug"}');
  });
});

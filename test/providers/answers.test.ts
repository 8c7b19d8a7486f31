/**
 * C15 through the library adapters: a near-miss tool name gets the same "did you mean" text the
 * gateway writes, and arguments that do not fit a tool's input schema get the same one-line answer
 * (the fields and the expected signature) before the executor runs, whichever adapter: Anthropic
 * and OpenAI (Chat and Responses) with the real SDKs against a local server that speaks their API, the Vercel AI
 * SDK, TanStack's lazy discovery. The texts come from one function each (core/argument-check.ts,
 * search/did-you-mean.ts); the adapters only carry them.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkArguments } from '../../src/core/argument-check.js';
import { Catalog } from '../../src/core/catalog.js';
import { AnthropicToolSearch, runAnthropicAgent } from '../../src/providers/anthropic/index.js';
import {
  OpenAIChatToolSearch,
  OpenAIResponsesToolSearch,
  runChatAgent,
  runResponsesAgent,
} from '../../src/providers/openai/index.js';
import { AISdkToolSearch } from '../../src/providers/ai-sdk/index.js';
import { LazyToolDiscovery } from '../../src/providers/tanstack/index.js';
import { unknownToolText } from '../../src/search/did-you-mean.js';
import { message, toolUse } from '../fixtures/wire/anthropic.js';
import { chatCall, completion, functionCall, outputText, response, toolSearchCall } from '../fixtures/wire/openai.js';
import { startWireServer, type WireServer } from './helpers.js';

const SUM_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};

function makeCatalog(): Catalog {
  const catalog = new Catalog();
  catalog.setServerTools('everything', [
    { name: 'get-sum', description: 'Returns the sum of two numbers.', inputSchema: SUM_SCHEMA },
    {
      name: 'echo',
      description: 'Echoes back the input string.',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
  ]);
  return catalog;
}

const runs: string[] = [];
const executor = ({ name, input }: { name: string; input: Record<string, unknown> }) => {
  runs.push(name);
  return `ran ${name} ${JSON.stringify(input)}`;
};

/** What every adapter must say: the texts of the one function that writes each. */
const catalog = makeCatalog();
const SUM = catalog.get('mcp__everything__get-sum')!;
const NEAR_MISS = unknownToolText('everything.get_sum', [SUM, catalog.get('mcp__everything__echo')!]);
const WRONG_ARGS = (checkArguments(SUM, { a: 1 }) as { message: string }).message;

let server: WireServer;
beforeEach(async () => {
  runs.length = 0;
  server = await startWireServer();
});
afterEach(() => server.close());

describe('C15 the same answers through the library adapters', () => {
  it('C15: the texts name the closest tool with its signature, and the missing field with the signature', () => {
    expect(NEAR_MISS).toMatch(
      /^Tool "everything\.get_sum" is not available here, so nothing was run\. Did you mean mcp__everything__get-sum\(a: number, b: number\)/,
    );
    expect(WRONG_ARGS).toBe(
      'Arguments for mcp__everything__get-sum do not match its input schema, so nothing was sent: b is missing. Expected: mcp__everything__get-sum(a: number, b: number).',
    );
  });

  it('C15: Anthropic (real SDK): a near-miss name and a wrong argument are answered before the executor runs', async () => {
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    server.script(
      '/v1/messages',
      message([toolUse('t1', 'tool_search', { query: 'select:mcp__everything__get-sum' })], 'tool_use'),
      message(
        [toolUse('t2', 'everything.get_sum', { a: 1, b: 2 }), toolUse('t3', 'mcp__everything__get-sum', { a: 1 })],
        'tool_use',
      ),
      message([toolUse('t4', 'mcp__everything__get-sum', { a: 1, b: 2 })], 'tool_use'),
      message([{ type: 'text', text: 'Done.', citations: null }]),
    );
    const run = await runAnthropicAgent({
      client: anthropic,
      toolSearch: new AnthropicToolSearch({ pool: makeCatalog(), option: 'always', platform: 'anthropic', executor }),
      params: { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'add 1 and 2' }] },
    });
    const outputs = Object.fromEntries(run.steps.map((s) => [s.id, [s.output, s.isError]]));
    expect(outputs['t2']).toEqual([NEAR_MISS, true]);
    expect(outputs['t3']).toEqual([WRONG_ARGS, true]);
    expect(outputs['t4']).toEqual(['ran mcp__everything__get-sum {"a":1,"b":2}', false]);
    expect(runs).toEqual(['mcp__everything__get-sum']);
  });

  it('C15: OpenAI Chat (real SDK), fixed list: the same through call_tool', async () => {
    const openai = new OpenAI({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    server.script(
      '/chat/completions',
      completion(null, [chatCall('s', 'tool_search', { query: 'select:mcp__everything__get-sum' })]),
      completion(null, [
        chatCall('a', 'call_tool', { name: 'everything.get_sum', arguments: { a: 1, b: 2 } }),
        chatCall('b', 'call_tool', { name: 'mcp__everything__get-sum', arguments: { a: 1 } }),
      ]),
      completion('Done.'),
    );
    await runChatAgent({
      client: openai,
      toolSearch: new OpenAIChatToolSearch({ pool: makeCatalog(), option: 'always', executor, toolList: 'fixed' }),
      params: { model: 'local-model', messages: [{ role: 'user', content: 'add 1 and 2' }] },
    });
    const answers = server
      .to('/chat/completions')[2]!
      .body.messages.filter((m: { role: string }) => m.role === 'tool')
      .map((m: { content: string }) => m.content);
    expect(answers.slice(1)).toEqual([NEAR_MISS, WRONG_ARGS]);
    expect(runs).toEqual([]);
  });

  it('C15: OpenAI Responses (real SDK): the same answers as function_call_output, nothing run', async () => {
    const openai = new OpenAI({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    server.script(
      '/responses',
      response([toolSearchCall('s', { query: 'select:mcp__everything__get-sum' })]),
      response([
        functionCall('a', 'everything.get_sum', { a: 1, b: 2 }),
        functionCall('b', 'mcp__everything__get-sum', { a: 1 }, 'everything'),
      ]),
      response([outputText('Done.')]),
    );
    await runResponsesAgent({
      client: openai,
      toolSearch: new OpenAIResponsesToolSearch({ pool: makeCatalog(), option: 'always', executor }),
      params: { model: 'gpt-5.4', input: 'add 1 and 2' },
    });
    const outputs = server
      .to('/responses')[2]!
      .body.input.filter((i: { type?: string }) => i.type === 'function_call_output')
      .map((i: { call_id: string; output: string }) => [i.call_id, i.output]);
    expect(outputs).toEqual([
      ['a', NEAR_MISS],
      ['b', WRONG_ARGS],
    ]);
    expect(runs).toEqual([]);
  });

  it('C15: Vercel AI SDK, fixed list: call_tool answers the same (a throw the SDK turns into a tool error)', async () => {
    // justInTime: a call need not follow a search in this history (F3 would refuse it first).
    const ts = new AISdkToolSearch({
      pool: makeCatalog(),
      option: 'always',
      executor,
      toolList: 'fixed',
      justInTime: true,
    });
    const call = ts.tools['call_tool']!;
    const run = (input: unknown) =>
      call.execute!(input as never, {
        toolCallId: 'x',
        messages: [{ role: 'user', content: 'add' }],
      }) as Promise<unknown>;
    await expect(run({ name: 'everything.get_sum', arguments: { a: 1, b: 2 } })).rejects.toThrow(NEAR_MISS);
    await expect(run({ name: 'mcp__everything__get-sum', arguments: { a: 1 } })).rejects.toThrow(WRONG_ARGS);
    expect(runs).toEqual([]);
  });

  it('C15: TanStack lazy discovery: the same "did you mean" and argument answers (its scorer is the name alone)', async () => {
    const lazy = new LazyToolDiscovery([
      { name: 'get-sum', description: 'Returns the sum of two numbers.', inputSchema: SUM_SCHEMA, execute: () => 3 },
    ]);
    const tool = { name: 'get-sum', description: 'Returns the sum of two numbers.', inputSchema: SUM_SCHEMA };
    await expect(lazy.execute('get_sum', { a: 1, b: 2 })).rejects.toThrow(unknownToolText('get_sum', [tool]));
    await expect(lazy.execute('get-sum', { a: 1 })).rejects.toThrow(
      'Arguments for get-sum do not match its input schema, so nothing was sent: b is missing. Expected: get-sum(a: number, b: number).',
    );
    expect(await lazy.execute('get-sum', { a: 1, b: 2 })).toBe(3);
  });
});

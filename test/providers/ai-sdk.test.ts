import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { AISdkToolSearch } from '../../src/providers/ai-sdk/index.js';
import { standInFormat, standInSearcher } from './helpers.js';
import { MARKER_NONCE } from '../../src/core/markers.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function call(id: string, name: string, input: unknown): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage,
    warnings: [],
  };
}

function done(text: string): LanguageModelV3GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
}

function makeCatalog(): Catalog {
  const catalog = new Catalog([{ name: 'get_time', description: 'Current time', handler: () => '12:00' }]);
  catalog.setServerTools('github', [
    {
      name: 'create_issue',
      description: 'Create a GitHub issue',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
    },
    { name: 'list_repos', description: 'List repositories' },
  ]);
  return catalog;
}

const executor = ({ name, input }: { name: string; input: Record<string, unknown> }) =>
  `ran ${name} ${JSON.stringify(input)}`;

function toolNames(options: { tools?: readonly { name: string }[] }): string[] {
  return (options.tools ?? []).map((t) => t.name).sort();
}

describe('F7 Vercel AI SDK', () => {
  it('F7: prepareStep activeTools grow after a search; the search step is flagged infrastructure', async () => {
    const ts = new AISdkToolSearch({
      pool: makeCatalog(),
      searcher: standInSearcher,
      formatResult: standInFormat,
      option: 'always',
      executor,
    });
    const model = new MockLanguageModelV3({
      doGenerate: [
        call('a', 'tool_search', { query: 'select:mcp__github__create_issue' }),
        call('b', 'mcp__github__create_issue', { title: 'Bug' }),
        done('Done.'),
      ],
    });
    const result = await generateText({
      model,
      tools: ts.tools,
      prepareStep: ts.prepareStep,
      stopWhen: stepCountIs(5),
      system: 'Be brief.',
      prompt: 'file a bug',
    });
    expect(result.text).toBe('Done.');
    const calls = model.doGenerateCalls;
    expect(toolNames(calls[0]! as any)).toEqual(['get_time', 'tool_search']);
    expect(toolNames(calls[1]! as any)).toEqual(['get_time', 'mcp__github__create_issue', 'tool_search']);
    const prompt0 = calls[0]!.prompt;
    expect(prompt0[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(prompt0[1]!.role).toBe('system');
    expect(JSON.stringify(prompt0[1])).toContain('available-deferred-tools');
    const output = result.steps[1]!.toolResults[0]!.output;
    expect(output).toBe('ran mcp__github__create_issue {"title":"Bug"}');
    const searchOutput = result.steps[0]!.toolResults[0]!.output;
    expect(searchOutput).toContain(`<tools-loaded n="${MARKER_NONCE}">\nmcp__github__create_issue\n</tools-loaded>`);
  });

  it('F3: repairToolCall turns a call to a never-loaded deferred tool into its select: search', async () => {
    const ts = new AISdkToolSearch({
      pool: makeCatalog(),
      searcher: standInSearcher,
      formatResult: standInFormat,
      option: 'always',
      executor,
    });
    const model = new MockLanguageModelV3({
      doGenerate: [call('x', 'mcp__github__list_repos', {}), call('y', 'mcp__github__list_repos', {}), done('ok')],
    });
    const result = await generateText({
      model,
      tools: ts.tools,
      prepareStep: ts.prepareStep,
      experimental_repairToolCall: ts.repairToolCall,
      stopWhen: stepCountIs(4),
      prompt: 'repos',
    });
    expect(result.steps[0]!.toolCalls[0]).toMatchObject({
      toolName: 'tool_search',
      input: { query: 'select:mcp__github__list_repos' },
    });
    expect(toolNames(model.doGenerateCalls[1]! as any)).toContain('mcp__github__list_repos');
    expect(result.steps[1]!.toolResults[0]!.output).toBe('ran mcp__github__list_repos {}');
  });

  it('F3: without activeTools, executing a never-loaded deferred tool throws the select: hint', async () => {
    const ts = new AISdkToolSearch({
      pool: makeCatalog(),
      searcher: standInSearcher,
      formatResult: standInFormat,
      option: 'always',
      executor,
    });
    const model = new MockLanguageModelV3({ doGenerate: [call('x', 'mcp__github__list_repos', {}), done('ok')] });
    const result = await generateText({ model, tools: ts.tools, stopWhen: stepCountIs(3), prompt: 'repos' });
    const errorPart = result.steps[0]!.content.find((p) => p.type === 'tool-error');
    expect(String((errorPart as { error?: unknown } | undefined)?.error)).toContain('select:mcp__github__list_repos');
  });

  it('B2: with the kill switch every tool is active and no search tool is offered', async () => {
    const ts = new AISdkToolSearch({
      pool: makeCatalog(),
      searcher: standInSearcher,
      formatResult: standInFormat,
      killSwitch: true,
    });
    const model = new MockLanguageModelV3({ doGenerate: [done('ok')] });
    await generateText({ model, tools: ts.tools, prepareStep: ts.prepareStep, prompt: 'hi' });
    expect(toolNames(model.doGenerateCalls[0]! as any)).toEqual([
      'get_time',
      'mcp__github__create_issue',
      'mcp__github__list_repos',
    ]);
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt)).not.toContain('available-deferred-tools');
  });
});

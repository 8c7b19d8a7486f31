/**
 * The provider examples of docs/providers.md (the first is also README.md's), type-checked (not run:
 * they would call hosted models). Imports are relative here; in the docs they read
 * `toolsearch/<provider>`.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import OpenAI from 'openai';
import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { chat, type AnyTextAdapter } from '@tanstack/ai';
import { defaultModelSupport, ModelSupport } from '../../src/index.js';
import { loadCatalogFromConfig } from '../../src/mcp/load.js';
import {
  AnthropicToolSearch,
  anthropicTokenCounter,
  mcpExecutor,
  runAnthropicAgent,
} from '../../src/providers/anthropic/index.js';
import {
  OpenAIChatToolSearch,
  OpenAIResponsesToolSearch,
  runChatAgent,
  runResponsesAgent,
} from '../../src/providers/openai/index.js';
import { AISdkToolSearch } from '../../src/providers/ai-sdk/index.js';
import { lazyToolsFromPool, mcpExecutor as tanstackMcpExecutor } from '../../src/providers/tanstack/index.js';

export async function anthropicExample(): Promise<void> {
  const client = new Anthropic();
  const { catalog, hub, close } = await loadCatalogFromConfig('./mcp.json');
  const toolSearch = new AnthropicToolSearch({
    pool: catalog,
    executor: mcpExecutor(hub),
    tokenCounter: anthropicTokenCounter(client, 'claude-sonnet-5-5'),
  });
  const { response } = await runAnthropicAgent({
    client,
    toolSearch,
    params: {
      model: 'claude-sonnet-5-5',
      max_tokens: 2048,
      messages: [{ role: 'user', content: 'File an issue for the login bug' }],
    },
    onStep: (step) => step.infrastructure || console.error(`${step.name} → ${step.output.slice(0, 80)}`),
  });
  console.log(response.content);
  await close();
}

export async function anthropicOwnLoopExample(client: Anthropic): Promise<ToolResultBlockParam[]> {
  const { catalog, hub } = await loadCatalogFromConfig('./mcp.json');
  const toolSearch = new AnthropicToolSearch({ pool: catalog, executor: mcpExecutor(hub), serverSearch: 'bm25' });
  const messages: MessageParam[] = [{ role: 'user', content: 'File an issue for the login bug' }];
  const prepared = await toolSearch.prepare({ model: 'claude-sonnet-5-5', max_tokens: 2048, messages });
  const response = await client.messages.create(prepared.params, prepared.headers ? { headers: prepared.headers } : {});
  messages.push({ role: 'assistant', content: response.content });
  const results: ToolResultBlockParam[] = [];
  for (const block of response.content) {
    if (block.type === 'tool_use')
      results.push((await toolSearch.runToolUse(block, prepared.plan, response.content)).result);
  }
  return results;
}

export function modelSupportExample(): void {
  defaultModelSupport.setRules([
    { capability: 'openai-tool-search', match: /^my-gpt$/, supported: true, source: 'our gateway' },
  ]);
  const support = new ModelSupport({ rules: [] });
  support.setUnsupportedPatterns(['haiku']);
}

export async function openaiResponsesExample(): Promise<void> {
  const { catalog, hub, close } = await loadCatalogFromConfig('./mcp.json');
  const toolSearch = new OpenAIResponsesToolSearch({ pool: catalog, executor: mcpExecutor(hub) });
  const { response } = await runResponsesAgent({
    client: new OpenAI(),
    toolSearch,
    params: { model: 'gpt-5.4', input: 'File an issue for the login bug' },
  });
  console.log(response.output_text);
  await close();
}

export async function openaiChatExample(): Promise<void> {
  const client = new OpenAI({ baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' }); // any OpenAI-compatible endpoint
  const { catalog, hub, close } = await loadCatalogFromConfig('./mcp.json');
  const toolSearch = new OpenAIChatToolSearch({ pool: catalog, executor: mcpExecutor(hub) });
  const { completion } = await runChatAgent({
    client,
    toolSearch,
    params: { model: 'qwen3', messages: [{ role: 'user', content: 'File an issue for the login bug' }] },
  });
  console.log(completion.choices[0]?.message.content);
  await close();
}

export async function aiSdkExample(model: LanguageModel): Promise<void> {
  const { catalog, hub, close } = await loadCatalogFromConfig('./mcp.json');
  const ts = new AISdkToolSearch({ pool: catalog, executor: mcpExecutor(hub) });
  const { text } = await generateText({
    model,
    tools: ts.tools,
    prepareStep: ts.prepareStep,
    experimental_repairToolCall: ts.repairToolCall,
    stopWhen: stepCountIs(10),
    prompt: 'File an issue for the login bug',
  });
  console.log(text);
  await close();
}

export async function tanstackExample(adapter: AnyTextAdapter): Promise<void> {
  const { catalog, hub, close } = await loadCatalogFromConfig('./mcp.json');
  const stream = chat({
    adapter,
    messages: [{ role: 'user', content: 'File an issue for the login bug' }],
    tools: lazyToolsFromPool(catalog, { executor: tanstackMcpExecutor(hub) }),
  });
  for await (const chunk of stream) console.log(chunk.type);
  await close();
}

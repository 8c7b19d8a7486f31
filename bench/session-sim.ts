/**
 * `bench:session`'s scripted client (no model): each intent searches with its text, calls the tool
 * it needs when the answer names it (by name when the tool is in the list, else through
 * `call_tool`), else records a miss. Every request is priced as the provider sees it: the tool
 * list, a system prompt, then the messages, with the longest unchanged prefix read from cache
 * (src/core/session-cost.ts). Eager, growing and fixed lists run the real gateway in process; the
 * Anthropic-native path is modelled: its tool list never changes and a search's references expand
 * inline into the conversation (five definitions).
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Catalog } from '../src/core/catalog.js';
import { requestCost, type PromptBlock } from '../src/core/session-cost.js';
import { searchToolSpec } from '../src/core/search-tool.js';
import { toolDefinitionJson, type ToolDefinitionLike } from '../src/core/tool.js';
import { ToolsearchGateway, type UpstreamCaller } from '../src/gateway/gateway.js';
import { o200kTokens } from '../src/inspect/tokenizer.js';
import { ToolSearcher } from '../src/search/searcher.js';

export type SessionMode = 'eager' | 'native' | 'growing' | 'fixed';
export const SESSION_MODES: readonly SessionMode[] = ['eager', 'native', 'growing', 'fixed'];

export interface Intent {
  readonly text: string;
  /** Model-facing names that satisfy it (any one). */
  readonly targets: readonly string[];
  /** Arguments for the call (the bench's upstream ignores them; they are priced). */
  readonly args?: Record<string, unknown>;
}

export interface RequestRow {
  readonly intent: number;
  readonly toolsTokens: number;
  readonly historyTokens: number;
  readonly cached: number;
  readonly weighted: number;
}

export interface SessionRun {
  readonly mode: SessionMode;
  readonly requests: RequestRow[];
  /** Per intent: cumulative weighted cost after it. */
  readonly cumulative: number[];
  readonly misses: number;
  /** Intents whose tool the search loaded into the list / only listed (or showed in full). */
  readonly loaded: number;
  readonly listed: number;
  /** Median o200k tokens of a search answer. */
  readonly answers: number[];
  /** Tools in the list at the end and their tokens. */
  readonly endTools: number;
  readonly endToolsTokens: number;
  /** Requests whose tool list kept the previous one as its prefix / requests after the first. */
  readonly prefixKept: number;
  readonly prefixChecks: number;
}

const SYSTEM = 'You are a helpful assistant. Use the tools you are given to do what the user asks.';
/** Filler for a longer client system prompt (`--system-tokens`): plain instructions, repeated. */
const SYSTEM_FILLER =
  ' Answer briefly and precisely. Ask before deleting or overwriting anything. Prefer the tools over guessing, and say which tool you used.';

/**
 * A system prompt of about `tokens` o200k tokens (never fewer): an assumed size for a real client's
 * own instructions, which no gateway can see. Without a size: the short prompt above (~18 tokens).
 */
export function systemPrompt(tokens?: number): string {
  if (tokens === undefined) return SYSTEM;
  let text = SYSTEM;
  while (o200kTokens(text) < tokens) text += SYSTEM_FILLER;
  return text;
}
const RESULT = 'ok';
const REPLY = 'Done.';
const MISS_REPLY = 'I could not find a tool for that.';
/** Anthropic's search returns 3–5 references; each expands to the tool's definition inline. */
const NATIVE_REFERENCES = 5;

const stubUpstream: UpstreamCaller = {
  callTool: async () => ({ content: [{ type: 'text', text: RESULT }] }),
};

const tokenCache = new Map<string, number>();
function tokens(text: string): number {
  let n = tokenCache.get(text);
  if (n === undefined) tokenCache.set(text, (n = o200kTokens(text)));
  return n;
}

function block(text: string): PromptBlock {
  return { key: text, tokens: tokens(text) };
}

function toolBlocks(tools: readonly ToolDefinitionLike[]): PromptBlock[] {
  return tools.map((t) => block(toolDefinitionJson(t)));
}

/** One conversation as a provider would bill it. */
class Ledger {
  readonly requests: RequestRow[] = [];
  readonly cumulative: number[] = [];
  private readonly history: PromptBlock[];
  private last: PromptBlock[] | undefined;
  private lastTools: string[] | undefined;
  total = 0;
  prefixKept = 0;
  prefixChecks = 0;

  constructor(
    private readonly caching: boolean,
    system: string,
  ) {
    this.history = [block(system)];
  }

  /** A request carrying `tools` and the history with `messages` appended. */
  request(intent: number, tools: readonly PromptBlock[], messages: readonly string[]): void {
    this.history.push(...messages.map(block));
    const blocks = [...tools, ...this.history];
    const cost = requestCost(this.last, blocks, this.caching);
    const keys = tools.map((t) => t.key);
    if (this.lastTools) {
      this.prefixChecks++;
      if (this.lastTools.every((k, i) => keys[i] === k)) this.prefixKept++;
    }
    this.lastTools = keys;
    this.last = blocks;
    this.total += cost.weighted;
    const toolsTokens = tools.reduce((s, t) => s + t.tokens, 0);
    this.requests.push({
      intent,
      toolsTokens,
      historyTokens: cost.tokens - toolsTokens,
      cached: cost.cached,
      weighted: cost.weighted,
    });
  }

  endIntent(): void {
    this.cumulative.push(this.total);
  }
}

function callJson(name: string, input: unknown): string {
  return JSON.stringify({ type: 'tool_use', name, input });
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
}

/** tools/call without the SDK's output-schema check (the bench's upstream answers "ok" for every tool). */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    CallToolResultSchema,
  )) as CallToolResult;
}

export async function gatewayClient(gateway: ToolsearchGateway, id: string): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide, id);
  const client = new Client({ name: 'bench-session', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** Run one scripted session in `mode` over `catalog`. */
export async function runSession(
  catalog: Catalog,
  intents: readonly Intent[],
  mode: SessionMode,
  options: { caching?: boolean; workingSet?: number; systemTokens?: number } = {},
): Promise<SessionRun> {
  const ledger = new Ledger(options.caching ?? true, systemPrompt(options.systemTokens));
  const answers: number[] = [];
  let misses = 0;
  let loaded = 0;
  let listed = 0;
  if (mode === 'native') {
    const searcher = new ToolSearcher();
    const pool = { tools: catalog.tools, deferred: new Set(catalog.tools.map((t) => t.name)), pendingServers: [] };
    const tools = toolBlocks([searchToolSpec()]);
    intents.forEach((intent, i) => {
      ledger.request(i, tools, [intent.text]);
      const found = searcher.search(pool, intent.text, { maxResults: NATIVE_REFERENCES }).matches;
      const expanded = found.map((n) => toolDefinitionJson(catalog.get(n)!));
      const answer = expanded.join('\n');
      answers.push(tokens(answer));
      const target = intent.targets.find((t) => found.includes(t));
      // The search runs server-side: its references expand where they are, after the cached prefix.
      if (!target) {
        misses++;
        ledger.request(i, tools, [callJson('tool_search', { query: intent.text }), answer, MISS_REPLY]);
      } else {
        loaded++;
        ledger.request(i, tools, [
          callJson('tool_search', { query: intent.text }),
          answer,
          callJson(target, intent.args ?? {}),
        ]);
        ledger.request(i, tools, [RESULT, REPLY]);
      }
      ledger.endIntent();
    });
    return finish(mode, ledger, answers, misses, loaded, listed, tools);
  }
  const gateway = new ToolsearchGateway({
    catalog,
    upstream: stubUpstream,
    mode: mode === 'eager' ? 'never' : 'always',
    toolList: mode === 'fixed' ? 'fixed' : 'growing',
    ...(options.workingSet !== undefined && { workingSet: options.workingSet }),
    pendingWaitMs: 0,
  });
  const client = await gatewayClient(gateway, `bench-${mode}`);
  const list = async (): Promise<{ names: Set<string>; blocks: PromptBlock[] }> => {
    const { tools } = await client.listTools();
    return { names: new Set(tools.map((t: Tool) => t.name)), blocks: toolBlocks(tools as ToolDefinitionLike[]) };
  };
  let current = await list();
  for (const [i, intent] of intents.entries()) {
    ledger.request(i, current.blocks, [intent.text]);
    if (mode === 'eager') {
      const target = intent.targets[0]!;
      await call(client, target, intent.args ?? {});
      ledger.request(i, current.blocks, [callJson(target, intent.args ?? {}), RESULT, REPLY]);
      ledger.endIntent();
      continue;
    }
    const answer = textOf(await call(client, 'tool_search', { query: intent.text }));
    answers.push(tokens(answer));
    current = await list();
    const target = intent.targets.find((t) => answer.includes(t));
    if (!target) {
      misses++;
      ledger.request(i, current.blocks, [callJson('tool_search', { query: intent.text }), answer, MISS_REPLY]);
      ledger.endIntent();
      continue;
    }
    const direct = current.names.has(target);
    if (direct) loaded++;
    else listed++;
    const next = direct
      ? { name: target, arguments: intent.args ?? {} }
      : { name: 'call_tool', arguments: { name: target, arguments: intent.args ?? {} } };
    ledger.request(i, current.blocks, [
      callJson('tool_search', { query: intent.text }),
      answer,
      callJson(next.name, next.arguments),
    ]);
    await call(client, next.name, next.arguments);
    current = await list();
    ledger.request(i, current.blocks, [RESULT, REPLY]);
    ledger.endIntent();
  }
  await client.close();
  await gateway.close();
  return finish(mode, ledger, answers, misses, loaded, listed, current.blocks);
}

function finish(
  mode: SessionMode,
  ledger: Ledger,
  answers: number[],
  misses: number,
  loaded: number,
  listed: number,
  endTools: readonly PromptBlock[],
): SessionRun {
  return {
    mode,
    requests: ledger.requests,
    cumulative: ledger.cumulative,
    misses,
    loaded,
    listed,
    answers,
    endTools: endTools.length,
    endToolsTokens: endTools.reduce((s, t) => s + t.tokens, 0),
    prefixKept: ledger.prefixKept,
    prefixChecks: ledger.prefixChecks,
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

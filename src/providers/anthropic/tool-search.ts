/**
 * F1 — the Anthropic adapter. `prepare` turns Messages API params plus a pool into the params to
 * send; `runToolUse` answers one `tool_use` block (search, undiscovered call, ordinary tool).
 *
 * Native expansion sends every deferred tool on every request with `defer_loading: true`
 * (discovered or not): the `tool_reference` blocks in the history decide which the model sees,
 * so the tools array — the head of the cached prefix — only changes when the pool does.
 *
 * The announcement goes in a system text block after the caller's system prompt: it changes only
 * when the deferred set changes, it never alters the conversation the caller stores, and the
 * caller's own system prefix stays cacheable in front of it.
 */
import type {
  ContentBlock,
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  TextBlockParam,
  ToolResultBlockParam,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import { readAnthropicHistory } from '../../core/anthropic-history.js';
import type { Plan } from '../../core/plan.js';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.js';
import { isInfrastructureCall } from '../shared/calls.js';
import { RequestPlanner, type CallOutcome, type ToolSearchOptions } from '../shared/session.js';
import { clientSearchText, type ToolSearchResult } from '../shared/search.js';
import { loadedByResponse, normalizeAnthropicMessages, referencedTools } from './normalize.js';
import { detectAnthropicPlatform, TOOL_SEARCH_BETAS, toolSearchHeaders, type AnthropicPlatform } from './platform.js';
import { isServerSearchToolType, serverSearchTool, toAnthropicTool, type ServerSearchKind } from './wire.js';

type ResultBlocks = NonNullable<Exclude<ToolResultBlockParam['content'], string>>;

export interface AnthropicToolSearchOptions extends ToolSearchOptions {
  /**
   * The client's base URL. It decides the platform (first-party, Bedrock, Vertex, Foundry, or a
   * proxy) and B5: behind an unknown host with an implicit mode, native deferral gives way to
   * the fallback (client-side expansion by default).
   */
  readonly baseURL?: string;
  /**
   * The client the requests go through (`new Anthropic()`, `AnthropicBedrock`, …). Without
   * `baseURL`, its `baseURL` decides the platform: the SDK fills that from `ANTHROPIC_BASE_URL`, so
   * a proxy set only in the environment is still a proxy. `runAnthropicAgent` passes its own.
   */
  readonly client?: AnthropicClientLike;
  /** Where requests go; default: detected from `baseURL` (or the client's). */
  readonly platform?: AnthropicPlatform;
  /**
   * `anthropic-beta` values sent with every request that uses native tool search (default: what
   * the platform's docs require, `TOOL_SEARCH_BETAS`). `[]` sends none. Add your own betas here
   * too: the request header replaces a client-level `anthropic-beta` default.
   */
  readonly betas?: readonly string[];
  /** F1: use Anthropic's server-side search tool instead of the client-side one. */
  readonly serverSearch?: ServerSearchKind;
}

/** What the adapter reads of a client: where it sends requests. */
export interface AnthropicClientLike {
  readonly baseURL?: string | undefined;
}

export interface PreparedAnthropicRequest {
  readonly params: MessageCreateParamsNonStreaming;
  readonly plan: Plan;
  /** Request headers to send with `params` (the platform's tool-search beta), when any. */
  readonly headers?: Record<string, string>;
}

export interface ToolUseLike {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface AnthropicToolRun {
  readonly result: ToolResultBlockParam;
  readonly infrastructure: boolean;
  /** The text the model reads (for step events and logs). */
  readonly output: string;
}

/** The caller's system prompt with the announcement appended as its own text block. */
export function withAnnouncement(
  system: MessageCreateParamsNonStreaming['system'],
  announcement: string | undefined,
): MessageCreateParamsNonStreaming['system'] {
  if (!announcement) return system;
  const blocks: TextBlockParam[] = typeof system === 'string' ? [{ type: 'text', text: system }] : [...(system ?? [])];
  return [...blocks, { type: 'text', text: announcement }];
}

/** B2: the caller's own tools with every tool-search field stripped. */
export function stripToolSearchTools(tools: readonly ToolUnion[]): ToolUnion[] {
  return tools.flatMap((tool) => {
    if (isServerSearchToolType(tool.type)) return [];
    if (!('defer_loading' in tool)) return [tool];
    const { defer_loading: _flag, ...rest } = tool;
    return [rest as ToolUnion];
  });
}

export class AnthropicToolSearch {
  readonly planner: RequestPlanner;

  constructor(readonly options: AnthropicToolSearchOptions) {
    this.planner = new RequestPlanner(options);
  }

  /** The search tool the model is given when native search is on (client `tool_search` or a server one). */
  get searchToolName(): string {
    return this.options.serverSearch ? serverSearchTool(this.options.serverSearch).name : SEARCH_TOOL_NAME;
  }

  get platform(): AnthropicPlatform {
    return this.platformFor(this.baseURL());
  }

  /** B5: the explicit `baseURL`, else the client's (the SDK's default host is first-party). */
  private baseURL(client?: AnthropicClientLike): string | undefined {
    return this.options.baseURL ?? (this.options.client ?? client)?.baseURL;
  }

  private platformFor(baseURL: string | undefined): AnthropicPlatform {
    return this.options.platform ?? detectAnthropicPlatform(baseURL, this.options.firstPartyHosts);
  }

  /**
   * Build the request to send: tools, normalized messages, announcement. Pure apart from B3's count.
   * `context.client`: the client it will be sent with, when the options named none.
   */
  async prepare(
    params: MessageCreateParamsNonStreaming,
    context: { readonly client?: AnthropicClientLike } = {},
  ): Promise<PreparedAnthropicRequest> {
    const history = readAnthropicHistory(params.messages, params.system);
    const baseURL = this.baseURL(context.client);
    const platform = this.platformFor(baseURL);
    const current = await this.planner.plan({
      model: params.model,
      history,
      expansion: 'native',
      capability: 'anthropic-tool-reference',
      searchMode: this.options.serverSearch ?? 'client',
      // B5: only an unknown host is a proxy; Bedrock, Vertex and Foundry are documented platforms.
      ...(platform === 'proxy' && baseURL !== undefined && { baseUrl: baseURL }),
    });
    const native = current.useToolSearch && current.expansion === 'native';
    const callerTools = params.tools ?? [];
    const available = new Set([...current.visibleTools, ...current.hiddenTools].map((t) => t.name));
    for (const tool of callerTools) if ('name' in tool) available.add(tool.name);

    const messages = normalizeAnthropicMessages(params.messages, { references: native, available });
    const tools = this.buildTools(current, callerTools, referencedTools(messages));
    const system = withAnnouncement(params.system, current.announcement?.text);
    const { tools: _t, system: _s, messages: _m, ...rest } = params;
    // B2: no tool-search header unless this request really uses native tool search.
    const headers = native ? toolSearchHeaders(this.options.betas ?? TOOL_SEARCH_BETAS[platform]) : undefined;
    return {
      plan: current,
      params: { ...rest, messages, ...(system !== undefined && { system }), ...(tools.length > 0 && { tools }) },
      ...(headers && { headers }),
    };
  }

  private buildTools(current: Plan, callerTools: readonly ToolUnion[], referenced: ReadonlySet<string>): ToolUnion[] {
    if (!current.useToolSearch) {
      // B2/B7: nothing deferred, nothing of tool search left in the request.
      return [...stripToolSearchTools(callerTools), ...current.visibleTools.map((t) => toAnthropicTool(t))];
    }
    // Client expansion is the fallback for a model or endpoint without native support: none of
    // the caller's native fields go either.
    if (current.expansion === 'client')
      return [...stripToolSearchTools(callerTools), ...current.visibleTools.map((t) => toAnthropicTool(t))];
    // A tool discovered but no longer referenced (known from a compaction snapshot) has nothing
    // left to expand it: it is sent loaded, so the model keeps it (D2).
    const discovered = new Set(current.discovered);
    const deferred = new Set(current.deferred.filter((n) => !discovered.has(n) || referenced.has(n)));
    const mode = current.instructions?.mode ?? 'client';
    const search: ToolUnion = mode === 'client' ? toAnthropicTool(current.searchTool!) : serverSearchTool(mode);
    const pool = this.options.pool.tools.map((t) => toAnthropicTool(t, deferred.has(t.name)));
    return [...callerTools, search, ...pool];
  }

  /**
   * Answer one `tool_use` block of the model's response. Pass the response's content as
   * `response` when you run your own loop: references a server-side search returned in that same
   * response load their tools for its calls (the documented search-then-call in one response).
   */
  async runToolUse(
    block: ToolUseLike,
    current: Plan,
    response?: readonly (ContentBlock | ContentBlockParam)[],
  ): Promise<AnthropicToolRun> {
    const native = current.expansion === 'native';
    if (current.useToolSearch && current.instructions?.mode === 'client' && block.name === current.searchTool?.name) {
      const result = this.planner.search(current, block.input);
      return {
        result: this.searchResultBlock(block.id, result, native),
        infrastructure: true,
        output: this.planner.format(result),
      };
    }
    const loadedNow = native && response ? loadedByResponse(response) : undefined;
    const outcome = await this.planner.runCall(current, block.name, block.input, loadedNow);
    return {
      result: answerBlock(block.id, block.name, outcome, native),
      infrastructure: isInfrastructureCall(block.name),
      output: outcome.text,
    };
  }

  /** F1/C8: references for the matches; text when nothing (or not everything) was found. */
  searchResultBlock(toolUseId: string, result: ToolSearchResult, native: boolean): ToolResultBlockParam {
    const text = this.planner.format(result);
    if (!native)
      return { type: 'tool_result', tool_use_id: toolUseId, content: clientSearchText(text, result.matches) };
    const content: ResultBlocks = result.matches.map((name) => ({
      type: 'tool_reference' as const,
      tool_name: name,
    }));
    if (result.matches.length === 0 || result.notFound.length > 0 || result.error !== undefined)
      content.push({ type: 'text', text });
    return { type: 'tool_result', tool_use_id: toolUseId, content };
  }
}

/** A call's tool_result; F3 just in time adds what loads the tool for the next request. */
function answerBlock(id: string, name: string, outcome: CallOutcome, native: boolean): ToolResultBlockParam {
  const error = outcome.isError ? { is_error: true } : {};
  if (!outcome.loadNow) return { type: 'tool_result', tool_use_id: id, content: outcome.text, ...error };
  const content: ResultBlocks = native
    ? [
        { type: 'text', text: outcome.text },
        { type: 'tool_reference', tool_name: name },
      ]
    : [{ type: 'text', text: clientSearchText(outcome.text, [name]) }];
  return { type: 'tool_result', tool_use_id: id, content, ...error };
}

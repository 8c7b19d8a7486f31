/**
 * F1 — the Anthropic adapter. `prepare` turns Messages API params plus a pool into the params to
 * send; `runToolUse` answers one `tool_use` block (search, undiscovered call, ordinary tool).
 *
 * Three ways to load a tool, per request: tool changes by value (F9, tool-changes.ts) where the
 * model-support table says the model and platform take them; else native expansion, which sends
 * every deferred tool on every request with `defer_loading: true` (discovered or not), the
 * `tool_reference` blocks in the history deciding which the model sees, so the tools array — the
 * head of the cached prefix — only changes when the pool does; else client-side expansion (F4).
 * Either native way reads the pool through `RetainedPool`: a reconnecting server's tools stay, so
 * no earlier turn loses a reference or an addition while it is away.
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
import { extractDiscovered } from '../../core/history.js';
import type { Plan } from '../../core/plan.js';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.js';
import { defaultModelSupport } from '../../core/model-support.js';
import { isInfrastructureCall } from '../shared/calls.js';
import { RequestPlanner, type CallOutcome, type ToolSearchOptions } from '../shared/session.js';
import { clientSearchText, type ToolSearchResult } from '../shared/search.js';
import { loadedByResponse, normalizeAnthropicMessages, referencedTools } from './normalize.js';
import { RetainedPool } from '../shared/retained-pool.js';
import { createStderrLogger, type Logger } from '../../util/log.js';
import { errorMessage } from '../../util/errors.js';
import { LOADED_TAG, nonceAttr, UNLOADED_TAG, wrapTag } from '../../core/markers.js';
import {
  AdditionMemo,
  goneToolRun,
  isToolChangesRefusal,
  keepsNonDeferredTool,
  lastUsedOf,
  renderNotices,
  type RenderedChanges,
  renderToolChanges,
  TOOL_CHANGES_BETA,
} from './tool-changes.js';
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
  /**
   * F9: add loaded tools by value mid-conversation (`tool_addition`) where the model-support
   * table says the model and platform take it (`auto`, the default), or never (`off`: the
   * `defer_loading` + `tool_reference` path as before).
   */
  readonly toolChanges?: 'auto' | 'off';
  /** Where the adapter's one-line notices go (a refused beta, a history it had to change). Default: stderr, warnings. */
  readonly logger?: Logger;
}

/** What the adapter reads of a client: where it sends requests. */
export interface AnthropicClientLike {
  readonly baseURL?: string | undefined;
}

export interface PreparedAnthropicRequest {
  /**
   * With tool changes (F9), `messages` also holds `role: "system"` messages (the beta
   * `BetaMessageParam` shape): send it as it is, with `headers`.
   */
  readonly params: MessageCreateParamsNonStreaming;
  readonly plan: Plan;
  /** How this request loads tools: by value (F9), `defer_loading` + references (F1), client-side (F4), or none. */
  readonly loading: 'tool-changes' | 'native' | 'client' | 'none';
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
  /** The pool with reconnecting servers' tools kept (retained-pool.ts). */
  private readonly pool: RetainedPool;
  /** F9: definitions as first rendered at each position (tool-changes.ts). */
  private readonly additions = new AdditionMemo();
  /** F9: model/platform pairs whose endpoint refused tool changes (a 400), with its reason. */
  private readonly refused = new Map<string, string>();
  /** F9: what each prepared plan's tool calls need: its loading way, the working set's clock, tools gone. */
  private readonly prepared = new WeakMap<Plan, PreparedUse>();
  private readonly logger: Logger;
  /** One line per notice, once per adapter (bounded: forgotten past NOTICES_KEPT). */
  private readonly said = new Set<string>();

  constructor(readonly options: AnthropicToolSearchOptions) {
    this.pool = new RetainedPool(options.pool);
    this.planner = new RequestPlanner({ ...options, pool: this.pool });
    this.logger = options.logger ?? createStderrLogger('warn');
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
    const toolChanges = this.toolChangesFor(params.model, platform);
    const current = await this.planner.plan({
      model: params.model,
      history,
      expansion: 'native',
      capability: toolChanges ? 'anthropic-tool-changes' : 'anthropic-tool-reference',
      platform,
      searchMode: this.options.serverSearch ?? 'client',
      // B5: only an unknown host is a proxy; Bedrock, Vertex and Foundry are documented platforms.
      ...(platform === 'proxy' && baseURL !== undefined && { baseUrl: baseURL }),
    });
    const native = current.useToolSearch && current.expansion === 'native';
    if (native && toolChanges) return this.prepareToolChanges(params, current, platform);
    const callerTools = params.tools ?? [];
    const available = new Set([...current.visibleTools, ...current.hiddenTools].map((t) => t.name));
    for (const tool of callerTools) if ('name' in tool) available.add(tool.name);

    const messages = normalizeAnthropicMessages(params.messages, { references: native, available });
    const tools = this.buildTools(current, callerTools, referencedTools(messages));
    const system = withAnnouncement(params.system, current.announcement?.text);
    const { tools: _t, system: _s, messages: _m, ...rest } = params;
    // B2: no tool-search header unless this request really uses native tool search.
    const headers = native ? toolSearchHeaders(this.options.betas ?? TOOL_SEARCH_BETAS[platform]) : undefined;
    this.prepared.set(current, { toolChanges: false, lastUsed: EMPTY_CLOCK, gone: EMPTY_SET });
    return {
      plan: current,
      loading: !current.useToolSearch ? 'none' : native ? 'native' : 'client',
      params: { ...rest, messages, ...(system !== undefined && { system }), ...(tools.length > 0 && { tools }) },
      ...(headers && { headers }),
    };
  }

  /**
   * F9: whether this request adds loaded tools by value: the option, the model-support table (model
   * and platform), no server-side search (its results are references), and no 400 for it before.
   */
  private toolChangesFor(model: string, platform: AnthropicPlatform): boolean {
    if (this.options.toolChanges === 'off' || this.options.serverSearch) return false;
    if (this.refused.has(refusalKey(model, platform))) return false;
    return (this.options.modelSupport ?? defaultModelSupport).supports(model, 'anthropic-tool-changes', platform);
  }

  /**
   * F9: `tools` is the caller's, the search tool and the pool's non-deferred tools — never a
   * deferred one, never one a search loaded; loaded tools are added by value where they were
   * loaded. A tool known only from a compaction snapshot (D2) has no such place left: it goes in
   * `tools`, loaded, as on the reference path (the compaction rewrote the prompt anyway).
   */
  private prepareToolChanges(
    params: MessageCreateParamsNonStreaming,
    current: Plan,
    platform: AnthropicPlatform,
  ): PreparedAnthropicRequest {
    const loadedInTurns = new Set(
      readAnthropicHistory(params.messages).flatMap((e) => (e.type === 'loaded' ? e.names : [])),
    );
    const deferred = new Set(current.deferred.filter((n) => !current.discovered.includes(n) || loadedInTurns.has(n)));
    const callerTools = params.tools ?? [];
    const tools = [
      ...callerTools,
      ...current.visibleTools.filter((t) => !deferred.has(t.name)).map((t) => toAnthropicTool(t)),
    ];
    if (!keepsNonDeferredTool(tools)) throw new Error('toolsearch: a tool-changes request without a non-deferred tool');
    const declared = new Set(tools.flatMap((t) => ('name' in t ? [t.name] : [])));
    const rendered = renderToolChanges(params.messages, {
      memo: this.additions,
      find: (name) => this.planner.findTool(name),
      declared,
    });
    this.sayRenderNotices(rendered);
    const messages = normalizeAnthropicMessages(rendered.messages, {
      references: false,
      available: declared,
      toolChanges: true,
    });
    const system = withAnnouncement(params.system, current.announcement?.text);
    const { tools: _t, system: _s, messages: _m, ...rest } = params;
    const betas = [...(this.options.betas ?? TOOL_SEARCH_BETAS[platform]), TOOL_CHANGES_BETA];
    const loaded = extractDiscovered(readAnthropicHistory(params.messages));
    const gone = new Set([...loaded].filter((name) => !this.planner.findTool(name) && !declared.has(name)));
    this.prepared.set(current, { toolChanges: true, lastUsed: lastUsedOf(params.messages), gone });
    return {
      plan: current,
      loading: 'tool-changes',
      params: { ...rest, messages, ...(system !== undefined && { system }), tools },
      headers: toolSearchHeaders(betas)!,
    };
  }

  /** F9: the history named tools the request cannot add as they were: one line each kind, once. */
  private sayRenderNotices(rendered: RenderedChanges): void {
    for (const { key, line } of renderNotices(rendered)) {
      if (this.said.has(key)) continue;
      if (this.said.size >= NOTICES_KEPT) this.said.clear();
      this.said.add(key);
      this.logger.warn(line);
    }
  }

  /**
   * F9: the endpoint answered a tool-changes request with a 400 that refuses what it sent (the
   * beta, a system message, the blocks): this model and platform take `defer_loading` +
   * `tool_reference` (or client-side expansion) from now on, said in one line. True when `error`
   * was such a refusal (retry with a fresh `prepare`); false for any other error.
   */
  refuseToolChanges(error: unknown, model: string, client?: AnthropicClientLike): boolean {
    if (!isToolChangesRefusal(error)) return false;
    const platform = this.platformFor(this.baseURL(client));
    const key = refusalKey(model, platform);
    if (this.refused.has(key)) return false;
    const reason = errorMessage(error);
    this.refused.set(key, reason);
    this.logger.warn(
      `toolsearch: ${platform === 'anthropic' ? 'the Claude API' : platform} refused tool changes for ${model} (${reason}); using defer_loading + tool_reference for it from now on`,
    );
    return true;
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
    const pool = this.pool.tools.map((t) => toAnthropicTool(t, deferred.has(t.name)));
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
    const byValue = this.prepared.get(current)?.toolChanges === true;
    const native = current.expansion === 'native' && !byValue;
    if (current.useToolSearch && current.instructions?.mode === 'client' && block.name === current.searchTool?.name) {
      const result = this.planner.search(current, block.input);
      if (byValue) return this.toolChangesSearchRun(block.id, current, result);
      return {
        result: this.searchResultBlock(block.id, result, native),
        infrastructure: true,
        output: this.planner.format(result),
      };
    }
    if (this.prepared.get(current)?.gone.has(block.name)) return goneToolRun(block);
    const loadedNow = native && response ? loadedByResponse(response) : undefined;
    const outcome = await this.planner.runCall(current, block.name, block.input, loadedNow);
    return {
      result: answerBlock(block.id, block.name, outcome, native),
      infrastructure: isInfrastructureCall(block.name),
      output: outcome.text,
    };
  }

  /**
   * F9: the session policy's answer (E5: compact lines, what it is sure of loaded) with its loads
   * and a working set's unloads recorded as markers; the next request adds and removes them.
   */
  private toolChangesSearchRun(toolUseId: string, current: Plan, result: ToolSearchResult): AnthropicToolRun {
    const cap = this.options.workingSet ?? 0;
    const lastUsed = this.prepared.get(current)?.lastUsed ?? EMPTY_CLOCK;
    const answer = this.planner.answerSearch(current, result, {
      loadedDefinedElsewhere: true,
      ...(cap > 0 && { workingSet: { cap, lastUsed } }),
    });
    const markers = [
      ...(answer.load.length > 0 ? [wrapTag(LOADED_TAG, answer.load, nonceAttr())] : []),
      ...(answer.unload.length > 0 ? [wrapTag(UNLOADED_TAG, answer.unload, nonceAttr())] : []),
    ];
    const text = [answer.text, ...markers].join('\n');
    return {
      result: { type: 'tool_result', tool_use_id: toolUseId, content: text },
      infrastructure: true,
      output: answer.text,
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

const EMPTY_CLOCK: ReadonlyMap<string, number> = new Map();
const EMPTY_SET: ReadonlySet<string> = new Set();
/** Notices said once each; past this many the record starts again (a long-lived adapter stays bounded). */
const NOTICES_KEPT = 1_000;

/** What `runToolUse` needs to know of the request it answers (F9). */
interface PreparedUse {
  readonly toolChanges: boolean;
  readonly lastUsed: ReadonlyMap<string, number>;
  /** Tools the history added that the pool no longer has: a call to one says so. */
  readonly gone: ReadonlySet<string>;
}

function refusalKey(model: string, platform: AnthropicPlatform): string {
  return `${platform}\n${model}`;
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

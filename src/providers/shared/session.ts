/**
 * What every provider adapter shares: its options, one `plan()` per request (with a measured
 * deferred-token count in `auto` mode, B3), and the search call run against the plan's pool.
 */
import { randomUUID } from 'node:crypto';
import type { PoolView } from '../../core/catalog.js';
import type { HistoryEvent } from '../../core/history.js';
import { resolveMode, type ModeSources } from '../../core/mode.js';
import type { ModelSupport, NativeCapability } from '../../core/model-support.js';
import { plan, type Expansion, type Plan, type PlanInput } from '../../core/plan.js';
import { isDeferred } from '../../core/policy.js';
import type { SearchToolMode } from '../../core/search-instructions.js';
import { DeferredTokenMemo, type TokenCounter, type TokenMeasure } from '../../core/threshold.js';
import type { ToolSpec } from '../../core/tool.js';
import { callThroughInput, runTool, undiscoveredToolMessage, type ToolExecutor, type ToolOutcome } from './calls.js';
import { formatSearchResult, ToolSearcher } from '../../search/searcher.js';
import { parseSearchInput, type Searcher, type SearchResultFormatter, type ToolSearchResult } from './search.js';
import type { LearnedLog } from '../../search/learned/log.js';
import { LearnedRanking } from '../../search/learned/learned-ranking.js';
import { schemaFingerprint } from '../../search/learned/terms.js';
import { UsageSignal } from '../../usage/signal.js';
import { decideSession, type ToolListMode } from '../../core/session-policy.js';
import { CALL_TOOL_NAME } from '../../core/search-tool.js';
import { formatSessionAnswer, policyInputOf } from '../../search/session-answer.js';
import { checkArguments, uncheckedNote } from '../../core/argument-check.js';
import { closestToolNames, nameWords, unknownToolText } from '../../search/did-you-mean.js';

export interface ToolSearchOptions extends ModeSources {
  /** The pool: a `Catalog`, or any `{tools, pendingServers}` view of one. */
  readonly pool: PoolView;
  /** Runs the model's search calls (default: a `ToolSearcher` with the default ranker). */
  readonly searcher?: Searcher;
  /** Renders a search result as text for the model (default: `formatSearchResult`, C8). */
  readonly formatResult?: SearchResultFormatter;
  readonly contextWindow?: number;
  /** B3: exact token counts for the `auto` threshold (else characters / 2.5). */
  readonly tokenCounter?: TokenCounter;
  readonly announce?: PlanInput['announce'];
  /** B4: the model-support table (default: the shared `defaultModelSupport`). */
  readonly modelSupport?: ModelSupport;
  /**
   * B4/B5: what a native adapter does when the model or endpoint cannot take the native path:
   * `client` (default in the adapters) expands client-side, `load-all` sends everything loaded.
   */
  readonly unsupportedModelFallback?: PlanInput['unsupportedModelFallback'];
  readonly deferral?: PlanInput['deferral'];
  readonly firstPartyHosts?: readonly string[];
  readonly maxResults?: number;
  /** F3: run a never-loaded deferred tool when called (and load it), instead of an error. */
  readonly justInTime?: boolean;
  /** Runs tools that have no handler in the pool (e.g. routes MCP calls to their server). */
  readonly executor?: ToolExecutor;
  /**
   * C13: learn from use. A client-side search followed by a call of one of its results records
   * (query, tool) in this log, and the default searcher ranks with it. Share one log between
   * agents to let them teach each other (only term sets are kept, never the query text).
   */
  readonly learning?: LearnedLog;
  /**
   * E5: `growing` (default): a search loads the tools it is sure of, appended to the tool list in
   * load order; `fixed`: the tool list never changes, the search answers with the best hit in full,
   * and calls go through `call_tool` (cache-stable for providers that cache prompt prefixes).
   */
  readonly toolList?: ToolListMode;
  /**
   * E5: past this many loaded tools, a search that loads more lets the least recently used ones
   * go, in one batch (0 or absent: never). Only where the provider can withdraw a tool without
   * rewriting the conversation (F9: Anthropic's `tool_removal`); elsewhere a loaded tool stays.
   */
  readonly workingSet?: number;
}

/** How a search answer is made beyond the session policy's defaults. */
export interface AnswerOptions {
  /** E5: a bounded working set: its cap and when each held tool was last used. */
  readonly workingSet?: { readonly cap: number; readonly lastUsed: ReadonlyMap<string, number> };
  /** F9: loaded tools reach the model whole another way (a `tool_addition`): the answer does not repeat them. */
  readonly loadedDefinedElsewhere?: boolean;
}

/** A non-search call's outcome; `loadNow` asks the provider to load the tool as it answers (F3 just in time). */
export interface CallOutcome extends ToolOutcome {
  readonly loadNow: boolean;
}

export interface PlanRequest {
  readonly model?: string;
  readonly history: readonly HistoryEvent[];
  readonly expansion: Expansion;
  readonly baseUrl?: string;
  /** B4: the native capability the model needs (native expansion only). */
  readonly capability?: NativeCapability;
  /** Which search tool a native request carries (Anthropic server-side search: `regex`/`bm25`). */
  readonly searchMode?: SearchToolMode;
  /** B4/F9: where the request goes, for model-support rules that name platforms. */
  readonly platform?: string;
}

/** The adapters fall back to client-side expansion, not to loading everything (B4/B5, B7). */
export const DEFAULT_ADAPTER_FALLBACK = 'client' as const;

/** Plans requests for one conversation; owns the token-count memo (B3: one count per pool). */
export class RequestPlanner {
  private readonly memo: DeferredTokenMemo;
  private readonly searcher: Searcher;
  private readonly usage: UsageSignal | undefined;
  /** One planner serves one conversation: C13's session, and C14's source (its own, per planner). */
  private readonly conversation = `conversation-${randomUUID()}`;
  readonly format: SearchResultFormatter;

  constructor(readonly options: ToolSearchOptions) {
    this.memo = new DeferredTokenMemo(options.tokenCounter);
    const log = options.learning;
    this.searcher = options.searcher ?? new ToolSearcher(log ? { learned: new LearnedRanking(log) } : {});
    this.usage =
      log &&
      new UsageSignal((query, name, source) => {
        const tool = this.findTool(name);
        // C14: this conversation is one source.
        log.record({ query, tool: name, source, ...(tool && { schema: schemaFingerprint(tool) }) });
      });
    this.format = options.formatResult ?? formatSearchResult;
  }

  async plan(request: PlanRequest): Promise<Plan> {
    const o = this.options;
    const tools = o.pool.tools;
    let deferredTokens: TokenMeasure | undefined;
    if (resolveMode(o).mode === 'auto') {
      const ctx = { ...o.deferral };
      deferredTokens = await this.memo.measure(tools.filter((t) => isDeferred(t, ctx)));
    }
    return plan({
      tools,
      pendingServers: o.pool.pendingServers,
      history: request.history,
      expansion: request.expansion,
      ...(o.option !== undefined && { option: o.option }),
      ...(o.env !== undefined && { env: o.env }),
      ...(o.killSwitch !== undefined && { killSwitch: o.killSwitch }),
      ...(request.model !== undefined && { model: request.model }),
      ...(request.baseUrl !== undefined && { baseUrl: request.baseUrl }),
      ...(request.capability !== undefined && { capability: request.capability }),
      ...(request.platform !== undefined && { platform: request.platform }),
      ...(request.searchMode !== undefined && { searchMode: request.searchMode }),
      ...(o.contextWindow !== undefined && { contextWindow: o.contextWindow }),
      ...(deferredTokens && { deferredTokens }),
      ...(o.announce !== undefined && { announce: o.announce }),
      ...(o.modelSupport !== undefined && { modelSupport: o.modelSupport }),
      unsupportedModelFallback: o.unsupportedModelFallback ?? DEFAULT_ADAPTER_FALLBACK,
      ...(o.deferral !== undefined && { deferral: o.deferral }),
      ...(o.firstPartyHosts !== undefined && { firstPartyHosts: o.firstPartyHosts }),
      ...(o.toolList !== undefined && { toolList: o.toolList }),
    });
  }

  /**
   * E5: a client-side search's answer: the session policy decides what loads (the `<tools-loaded>`
   * marker carries only those) and the model reads compact lines. A custom `formatResult` keeps the
   * earlier contract: its text, every match loaded.
   */
  answerSearch(
    current: Plan,
    result: ToolSearchResult,
    options: AnswerOptions = {},
  ): { text: string; load: readonly string[]; unload: readonly string[] } {
    if (this.options.formatResult) return { text: this.format(result), load: result.matches, unload: [] };
    const deferred = new Set(current.deferred);
    const fixed = this.options.toolList === 'fixed';
    const workingSet = options.workingSet;
    const decision = decideSession({
      ...policyInputOf(result, (name) => deferred.has(name)),
      held: current.discovered,
      toolList: fixed ? 'fixed' : 'growing',
      ...(workingSet && { workingSetCap: workingSet.cap, lastUsed: workingSet.lastUsed }),
    });
    const text = formatSessionAnswer(result, decision, (name) => this.findTool(name), {
      fixed,
      callTool: CALL_TOOL_NAME,
      // F9: a tool added by value reaches the model whole there; the answer only names it.
      ...(options.loadedDefinedElsewhere === true && { loadedByName: true }),
    });
    // A fixed list records what the answer named (callable through call_tool); its tools never change.
    return { text, load: fixed ? [...decision.describe, ...decision.list] : decision.load, unload: decision.unload };
  }

  findTool(name: string): ToolSpec | undefined {
    return this.options.pool.tools.find((t) => t.name === name);
  }

  /**
   * Run a non-search call. F3: a deferred tool this request never loaded is refused with the
   * exact query that loads it, or with `justInTime` run and flagged to be loaded by the answer.
   * `loadedNow`: tools the same response already loaded (Anthropic's server-side search puts its
   * `tool_search_tool_result` and the call of the found tool in one response).
   */
  async runCall(
    current: Plan,
    name: string,
    input: unknown,
    loadedNow: ReadonlySet<string> = EMPTY,
  ): Promise<CallOutcome> {
    const through = this.options.toolList === 'fixed' && name === CALL_TOOL_NAME ? callThroughInput(input) : undefined;
    if (through) return this.runCall(current, through.name, through.arguments, loadedNow);
    const tool = this.findTool(name);
    // C15: a name the pool does not have, close to names it does, gets "did you mean" (nothing runs).
    if (!tool) {
      const closest = this.closestTools(current, name);
      if (closest.length > 0)
        return { text: unknownToolText(name, closest, current.searchTool?.name), isError: true, loadNow: false };
    }
    const hidden = current.useToolSearch && undiscoveredNames(current).has(name) && !loadedNow.has(name);
    if (hidden && !this.options.justInTime) {
      return {
        text: undiscoveredToolMessage(name, current.instructions ?? current.searchTool?.name),
        isError: true,
        loadNow: false,
      };
    }
    // C15: arguments are checked against the real input schema before anything goes to a server.
    const check = tool && !tool.handler ? checkArguments(tool, toArguments(input)) : undefined;
    if (check && !check.ok) return { text: check.message, isError: true, loadNow: false };
    const outcome = await runTool(name, input, tool, this.options.executor);
    this.usage?.called(this.conversation, name, this.conversation);
    const note = check?.skipped !== undefined && tool ? `\n${uncheckedNote(tool, check.skipped)}` : '';
    return { ...outcome, text: outcome.text + note, loadNow: hidden };
  }

  /** C15: the pool's tools closest to a name it does not have (by name, then as the search ranks its words). */
  private closestTools(current: Plan, name: string): ToolSpec[] {
    const tools = this.options.pool.tools;
    const words = nameWords(name);
    const ranked =
      words === ''
        ? []
        : this.searcher.search(
            { tools, deferred: new Set([...current.deferred, ...tools.map((t) => t.name)]), pendingServers: [] },
            words,
            { maxResults: 3 },
          ).matches;
    return closestToolNames(name, tools, () => ranked).flatMap((n) => this.findTool(n) ?? []);
  }

  /** Run the model's search call over this request's pool. */
  search(current: Plan, input: unknown, mode?: 'regex' | 'bm25'): ToolSearchResult {
    const { query, maxResults } = parseSearchInput(input);
    const limit = maxResults ?? this.options.maxResults;
    const result = this.searcher.search(
      {
        tools: this.options.pool.tools,
        deferred: new Set(current.deferred),
        pendingServers: this.options.pool.pendingServers,
      },
      query,
      { ...(limit !== undefined && { maxResults: limit }), ...(mode && { mode }) },
    );
    this.usage?.searched(this.conversation, query, result, this.conversation);
    return result;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

/** A call's input as the arguments object a schema checks (a JSON string is parsed; anything else is itself). */
function toArguments(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** F3: the deferred tools this request has not loaded: calling one needs a search first. */
export function undiscoveredNames(current: Plan): Set<string> {
  return new Set(current.hiddenTools.map((t) => t.name));
}

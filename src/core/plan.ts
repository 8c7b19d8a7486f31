/**
 * The per-request pipeline in one pure function: mode → gates (model, proxy, threshold) →
 * deferred set → discovered set → filter → announce. It returns plain data; providers turn it
 * into a wire request. It never calls search and does no I/O: a real token count, if wanted, is
 * measured beforehand (DeferredTokenMemo) and passed in.
 */
import { deferredDelta, fullAnnouncement, type AnnounceOptions, type Announcement } from './announce.js';
import { announcementBudget, DEFAULT_DEFERRED_TOKEN_BUDGET } from './announce-budget.js';
import { definitiveGate, isFirstPartyBaseUrl, optimisticGate, type GateDecision } from './gates.js';
import { extractDiscovered, type HistoryEvent } from './history.js';
import { resolveMode, type ModeSources, type ResolvedMode } from './mode.js';
import {
  defaultModelSupport,
  type ModelSupport,
  type ModelSupportDecision,
  type NativeCapability,
} from './model-support.js';
import { isDeferred, type DeferralContext } from './policy.js';
import { searchInstructions, type SearchInstructions, type SearchToolMode } from './search-instructions.js';
import { callToolSpec, SEARCH_TOOL_NAME, searchToolSpec } from './search-tool.js';
import type { ToolListMode } from './session-policy.js';
import { DEFAULT_CONTEXT_WINDOW, estimateToolTokens, thresholdTokens, type TokenMeasure } from './threshold.js';
import type { ToolDefinitionLike, ToolSpec } from './tool.js';

/** How discovered tools reach the model: provider-native references, or our own tools array. */
export type Expansion = 'native' | 'client';

export interface PlanInput extends ModeSources {
  /** The pool: every tool the agent has, plus the servers still connecting. */
  readonly tools: readonly ToolSpec[];
  readonly pendingServers?: readonly string[];
  /** The conversation so far, as history events (D1). */
  readonly history?: readonly HistoryEvent[];
  readonly model?: string;
  readonly contextWindow?: number;
  /** B3: a measured size of the deferred tools (else characters / 2.5). */
  readonly deferredTokens?: TokenMeasure;
  /** The provider expands references natively (Anthropic, OpenAI Responses). */
  readonly expansion?: Expansion;
  /**
   * B4/B5: when the native path is not available (unsupported model, or a proxy base URL with an
   * implicit mode): load everything (default here; the provider adapters default to `client`),
   * or expand client-side.
   */
  readonly unsupportedModelFallback?: 'load-all' | 'client';
  readonly modelSupport?: ModelSupport;
  /** B4: which native capability the model needs (default `anthropic-tool-reference`). */
  readonly capability?: NativeCapability;
  /** B4/F9: where the request goes (an adapter's platform name); model-support rules may name platforms. */
  readonly platform?: string;
  /**
   * Which search tool a native request carries (`regex`/`bm25`: Anthropic's server-side ones);
   * decides the model-facing text. Client expansion always uses the client search tool.
   */
  readonly searchMode?: SearchToolMode;
  /** B5: the Anthropic client's base URL (native path only). */
  readonly baseUrl?: string;
  readonly firstPartyHosts?: readonly string[];
  readonly searchToolName?: string;
  readonly searchToolAllowed?: boolean;
  readonly deferral?: Omit<DeferralContext, 'searchToolName'>;
  /** `full`: the whole list every request; `delta`: changes against the history (E2); `none`. */
  readonly announce?: 'full' | 'delta' | 'none';
  readonly announceOptions?: Omit<AnnounceOptions, 'searchToolName' | 'instructions'>;
  /**
   * E4: tokens for everything the request carries about deferred tools — the search tool, the
   * announcement and `alongsideTools` (default DEFAULT_DEFERRED_TOKEN_BUDGET). The announcement gets
   * what the tools leave; `announceOptions.tokenBudget`, when set, is the announcement's own budget.
   */
  readonly deferredTokenBudget?: number;
  /** E4: tool definitions sent beside the search tool whenever deferral is on (a call-through tool). */
  readonly alongsideTools?: readonly ToolDefinitionLike[];
  /**
   * E5: `growing` (default): discovered tools join the visible list, appended in load order;
   * `fixed`: the list never changes (non-deferred tools, the search tool and `call_tool`), and
   * discovered tools run through `call_tool`.
   */
  readonly toolList?: ToolListMode;
}

export interface Plan {
  readonly mode: ResolvedMode;
  readonly useToolSearch: boolean;
  readonly expansion: Expansion;
  readonly gates: { readonly optimistic: GateDecision; readonly definitive: GateDecision };
  readonly threshold?: { readonly limit: number; readonly measure: TokenMeasure };
  /** Every deferred tool name (discovered or not). */
  readonly deferred: readonly string[];
  /** Deferred tools the conversation has loaded. */
  readonly discovered: readonly string[];
  /** D3: what the model sees — non-deferred tools, the search tool, discovered deferred tools. */
  readonly visibleTools: readonly ToolSpec[];
  /** Deferred and not yet discovered: native providers send these with `defer_loading`. */
  readonly hiddenTools: readonly ToolSpec[];
  /** Our search tool, when this request uses tool search (a server-search request sends Anthropic's instead: see `instructions`). */
  readonly searchTool?: ToolSpec;
  /** What the model is told about searching: the search tool actually sent and its query form. */
  readonly instructions?: SearchInstructions;
  /** Set when a native request fell back to client-side expansion (B4/B5): the reason and its source. */
  readonly fallback?: string;
  readonly announcement?: Announcement;
}

/** D3: non-deferred tools, the search tool, and discovered deferred tools — nothing else. */
export function filterTools(
  tools: readonly ToolSpec[],
  deferred: ReadonlySet<string>,
  discovered: ReadonlySet<string>,
  searchToolName: string = SEARCH_TOOL_NAME,
): ToolSpec[] {
  return tools.filter((t) => !deferred.has(t.name) || t.name === searchToolName || discovered.has(t.name));
}

/**
 * D3 + E5: what the model sees, in an order that only grows at its end: the non-deferred tools and
 * the search tool (and `call_tool` on a fixed list), then discovered tools in load order, so each
 * request's tool list keeps the previous one as its prefix and a prompt cache survives a search.
 */
function visibleInOrder(
  pool: readonly ToolSpec[],
  deferred: ReadonlySet<string>,
  discovered: ReadonlySet<string>,
  head: readonly ToolSpec[],
  fixed: boolean,
): ToolSpec[] {
  const out = [...pool.filter((t) => !deferred.has(t.name)), ...head];
  if (fixed) return out;
  const byName = new Map(pool.map((t) => [t.name, t]));
  for (const name of discovered) {
    const tool = byName.get(name);
    if (tool) out.push(tool);
  }
  return out;
}

interface ResolvedExpansion {
  readonly expansion: Expansion;
  readonly supported: boolean;
  /** B5: the base URL still counts as a proxy for the optimistic gate. */
  readonly proxyGate: boolean;
  /** Why a native request expands client-side (B4/B5), for logs and `inspect`. */
  readonly fallback?: string;
}

/** B4/B5: native when the model and the endpoint allow it, else the chosen fallback. */
function resolveExpansion(input: PlanInput, mode: ResolvedMode, model: ModelSupportDecision): ResolvedExpansion {
  const modelSupported = model.supported;
  const requested = input.expansion ?? 'client';
  if (requested === 'client') return { expansion: 'client', supported: true, proxyGate: false };
  const proxy =
    input.baseUrl !== undefined && !mode.explicit && !isFirstPartyBaseUrl(input.baseUrl, input.firstPartyHosts);
  if (modelSupported && !proxy) return { expansion: 'native', supported: true, proxyGate: false };
  // Client-side expansion needs nothing from the model or the endpoint but plain tools.
  if (input.unsupportedModelFallback === 'client') {
    const why = !modelSupported
      ? `model ${input.model} lacks ${input.capability ?? 'anthropic-tool-reference'} (${model.rule?.source ?? 'model-support table'})`
      : `base URL ${input.baseUrl} is not first-party and the mode was not set explicitly`;
    return { expansion: 'client', supported: true, proxyGate: false, fallback: `${why}: client-side expansion` };
  }
  return { expansion: 'native', supported: modelSupported, proxyGate: proxy };
}

export function plan(input: PlanInput): Plan {
  const mode = resolveMode(input);
  const searchToolName = input.searchToolName ?? SEARCH_TOOL_NAME;
  const pool = input.tools.filter((t) => t.name !== searchToolName);
  const pending = input.pendingServers ?? [];
  const ctx: DeferralContext = { ...input.deferral, searchToolName };

  const deferredTools = pool.filter((t) => isDeferred(t, ctx));
  const deferred = new Set(deferredTools.map((t) => t.name));
  const modelDecision = (input.modelSupport ?? defaultModelSupport).decide(
    input.model,
    input.capability,
    input.platform,
  );
  const { expansion, supported, proxyGate, fallback } = resolveExpansion(input, mode, modelDecision);

  const optimistic = optimisticGate({
    mode,
    ...(proxyGate && input.baseUrl !== undefined && { proxyBaseUrl: input.baseUrl }),
    ...(input.firstPartyHosts && { firstPartyHosts: input.firstPartyHosts }),
  });
  const threshold =
    mode.mode === 'auto'
      ? {
          limit: thresholdTokens(input.contextWindow ?? DEFAULT_CONTEXT_WINDOW, mode.autoPercent),
          measure: input.deferredTokens ?? estimateToolTokens(deferredTools),
        }
      : undefined;
  const definitive = definitiveGate({
    optimistic,
    modelSupported: supported,
    ...(input.model !== undefined && { model: input.model }),
    searchToolAllowed: input.searchToolAllowed ?? true,
    mode,
    deferredCount: deferredTools.length,
    pendingServers: pending,
    ...(threshold && { threshold }),
  });
  const gates = { optimistic, definitive };

  if (!definitive.enabled) {
    // B7: every "no" ends in everything loaded.
    return {
      mode,
      useToolSearch: false,
      expansion,
      gates,
      ...(threshold && { threshold }),
      deferred: [],
      discovered: [],
      visibleTools: pool,
      hiddenTools: [],
    };
  }

  const history = input.history ?? [];
  const discoveredAll = extractDiscovered(history);
  const discovered = new Set([...discoveredAll].filter((n) => deferred.has(n)));
  const searchTool = searchToolSpec(searchToolName);
  const fixed = input.toolList === 'fixed';
  const head = fixed ? [searchTool, callToolSpec()] : [searchTool];
  const visibleTools = visibleInOrder(pool, deferred, discovered, head, fixed);
  const hiddenTools = deferredTools.filter((t) => !discovered.has(t.name));
  // Server-side search exists only on the native path; client expansion carries our own tool.
  const instructions = searchInstructions(
    expansion === 'native' ? (input.searchMode ?? 'client') : 'client',
    searchToolName,
  );
  const announcement = announceFor(input, deferredTools, pool, history, instructions, head);

  return {
    mode,
    useToolSearch: true,
    expansion,
    gates,
    ...(threshold && { threshold }),
    deferred: [...deferred],
    discovered: [...discovered],
    visibleTools,
    hiddenTools,
    searchTool,
    instructions,
    ...(fallback && { fallback }),
    ...(announcement && { announcement }),
  };
}

function announceFor(
  input: PlanInput,
  deferredTools: readonly ToolSpec[],
  pool: readonly ToolSpec[],
  history: readonly HistoryEvent[],
  instructions: SearchInstructions,
  ownTools: readonly ToolSpec[],
): Announcement | undefined {
  const count = input.announceOptions?.countTextTokens;
  const tokenBudget =
    input.announceOptions?.tokenBudget ??
    announcementBudget(
      input.deferredTokenBudget ?? DEFAULT_DEFERRED_TOKEN_BUDGET,
      [...ownTools, ...(input.alongsideTools ?? [])],
      count,
    );
  const options: AnnounceOptions = {
    ...input.announceOptions,
    tokenBudget,
    searchToolName: instructions.toolName,
    instructions,
  };
  switch (input.announce ?? 'full') {
    case 'none':
      return undefined;
    case 'delta':
      return deferredDelta(deferredTools, pool, history, options) ?? undefined;
    case 'full':
      return deferredTools.length ? fullAnnouncement(deferredTools, options) : undefined;
  }
}

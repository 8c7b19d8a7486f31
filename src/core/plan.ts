/**
 * The per-request pipeline in one pure function: mode → gates (model, proxy, threshold) →
 * deferred set → discovered set → filter → announce. It returns plain data; providers turn it
 * into a wire request. It never calls search and does no I/O: a real token count, if wanted, is
 * measured beforehand (DeferredTokenMemo) and passed in.
 */
import { deferredDelta, fullAnnouncement, type AnnounceOptions, type Announcement } from './announce.js';
import { definitiveGate, optimisticGate, type GateDecision } from './gates.js';
import { extractDiscovered, type HistoryEvent } from './history.js';
import { resolveMode, type ModeSources, type ResolvedMode } from './mode.js';
import { defaultModelSupport, type ModelSupport } from './model-support.js';
import { isDeferred, type DeferralContext } from './policy.js';
import { SEARCH_TOOL_NAME, searchToolSpec } from './search-tool.js';
import { DEFAULT_CONTEXT_WINDOW, estimateToolTokens, thresholdTokens, type TokenMeasure } from './threshold.js';
import type { ToolSpec } from './tool.js';

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
  /** B4: with native expansion and an unsupported model: load everything, or expand client-side. */
  readonly unsupportedModelFallback?: 'load-all' | 'client';
  readonly modelSupport?: ModelSupport;
  /** B5: the Anthropic client's base URL (native path only). */
  readonly baseUrl?: string;
  readonly firstPartyHosts?: readonly string[];
  readonly searchToolName?: string;
  readonly searchToolAllowed?: boolean;
  readonly deferral?: Omit<DeferralContext, 'searchToolName'>;
  /** `full`: the whole list every request; `delta`: changes against the history (E2); `none`. */
  readonly announce?: 'full' | 'delta' | 'none';
  readonly announceOptions?: Omit<AnnounceOptions, 'searchToolName'>;
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
  /** The search tool, when this request uses one. */
  readonly searchTool?: ToolSpec;
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

function resolveExpansion(input: PlanInput, modelSupported: boolean): { expansion: Expansion; supported: boolean } {
  const requested = input.expansion ?? 'client';
  if (requested === 'client' || modelSupported) return { expansion: requested, supported: true };
  // B4: the model cannot expand native references.
  return input.unsupportedModelFallback === 'client'
    ? { expansion: 'client', supported: true }
    : { expansion: 'native', supported: false };
}

export function plan(input: PlanInput): Plan {
  const mode = resolveMode(input);
  const searchToolName = input.searchToolName ?? SEARCH_TOOL_NAME;
  const pool = input.tools.filter((t) => t.name !== searchToolName);
  const pending = input.pendingServers ?? [];
  const ctx: DeferralContext = { ...input.deferral, searchToolName };

  const deferredTools = pool.filter((t) => isDeferred(t, ctx));
  const deferred = new Set(deferredTools.map((t) => t.name));
  const modelSupported = (input.modelSupport ?? defaultModelSupport).supports(input.model);
  const { expansion, supported } = resolveExpansion(input, modelSupported);

  const optimistic = optimisticGate({
    mode,
    ...(input.expansion === 'native' && input.baseUrl !== undefined && { proxyBaseUrl: input.baseUrl }),
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
      mode, useToolSearch: false, expansion, gates, ...(threshold && { threshold }),
      deferred: [], discovered: [], visibleTools: pool, hiddenTools: [],
    };
  }

  const history = input.history ?? [];
  const discoveredAll = extractDiscovered(history);
  const discovered = new Set([...discoveredAll].filter((n) => deferred.has(n)));
  const searchTool = searchToolSpec(searchToolName);
  const visibleTools = [...filterTools(pool, deferred, discovered, searchToolName), searchTool];
  const hiddenTools = deferredTools.filter((t) => !discovered.has(t.name));
  const announcement = announceFor(input, deferredTools, pool, history, searchToolName);

  return {
    mode, useToolSearch: true, expansion, gates, ...(threshold && { threshold }),
    deferred: [...deferred], discovered: [...discovered], visibleTools, hiddenTools, searchTool,
    ...(announcement && { announcement }),
  };
}

function announceFor(
  input: PlanInput,
  deferredTools: readonly ToolSpec[],
  pool: readonly ToolSpec[],
  history: readonly HistoryEvent[],
  searchToolName: string,
): Announcement | undefined {
  const options: AnnounceOptions = { ...input.announceOptions, searchToolName };
  switch (input.announce ?? 'full') {
    case 'none':
      return undefined;
    case 'delta':
      return deferredDelta(deferredTools, pool, history, options) ?? undefined;
    case 'full':
      return deferredTools.length ? fullAnnouncement(deferredTools, options) : undefined;
  }
}

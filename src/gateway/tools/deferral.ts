/**
 * Which catalog tools the gateway defers: the core's per-request pipeline (`plan()`: A2 chain,
 * B1 mode, B3 threshold for `auto:N` with the characters / 2.5 estimate, B6 gate) run over the
 * pool, so the gateway and the library never disagree about what is deferred. A plain `auto` asks
 * the session cost model instead (E5): defer only when deferral costs less over a whole session.
 */
import { parseModeValue, type ToolSearchMode } from '../../core/mode.js';
import { plan } from '../../core/plan.js';
import type { PoolView } from '../../core/catalog.js';
import { estimateToolTokens } from '../../core/threshold.js';
import { estimateSessionCost, type SessionAssumptions, type SessionCostEstimate } from '../../core/session-cost.js';
import { toolDefinitionJson, type ToolDefinitionLike, type ToolSpec } from '../../core/tool.js';
import { announceDeferred, CALL_TOOL_TOKENS, SEARCH_TOOL_TOKENS, type AnnounceBudget } from './definitions.js';

export interface GatewayMode {
  readonly mode: ToolSearchMode;
  readonly autoPercent: number;
  /** E5: a plain `auto` (no `:N`) decides with the session cost model, not the context-window share. */
  readonly costModel?: boolean;
}

/** `always` (default), `never`, `auto`, `auto:N`, booleans. Throws InvalidModeError otherwise. */
export function parseGatewayMode(value: string | undefined): GatewayMode {
  const parsed = parseModeValue(value ?? 'always');
  return value?.trim().toLowerCase() === 'auto' ? { ...parsed, costModel: true } : parsed;
}

export interface SessionCostOptions {
  /** Tokens of a text (default: characters / 2.5, the `auto:N` estimate; `inspect` passes o200k). */
  readonly count?: (text: string) => number;
  readonly assumptions?: SessionAssumptions;
  readonly toolList?: 'growing' | 'fixed';
  readonly budget?: AnnounceBudget;
  /** G11: the gateway's own tools sent with every request, deferred or not (`run_code`). */
  readonly ownTools?: readonly ToolDefinitionLike[];
}

/**
 * E5: what a session over this pool costs deferred vs loading everything (src/core/session-cost.ts):
 * deferral always sends `tool_search` with its announcement and `call_tool`; the rest comes from
 * the deferrable tools' definitions.
 */
export function sessionCostOf(
  pool: PoolView | readonly ToolSpec[],
  options: SessionCostOptions = {},
): SessionCostEstimate {
  const view: PoolView = Array.isArray(pool) ? { tools: pool, pendingServers: [] } : (pool as PoolView);
  const count = options.count ?? ((text: string) => Math.ceil(text.length / 2.5));
  const deferred = new Set(
    plan({ tools: view.tools, pendingServers: [], option: 'always', announce: 'none' }).deferred,
  );
  let eagerTokens = 0;
  let deferredToolTokens = 0;
  for (const tool of view.tools) {
    const tokens = options.count ? count(toolDefinitionJson(tool)) : estimateToolTokens([tool]).tokens;
    eagerTokens += tokens;
    if (deferred.has(tool.name)) deferredToolTokens += tokens;
  }
  const announcement = count(JSON.stringify(announceDeferred(view, deferred, options.budget)));
  // Sent in both cases (run_code): it narrows the gap deferral can win, so `auto` counts it too.
  let own = 0;
  for (const tool of options.ownTools ?? []) own += count(toolDefinitionJson(tool));
  return estimateSessionCost({
    ...options.assumptions,
    eagerTokens: eagerTokens + own,
    deferredBaseTokens: own + SEARCH_TOOL_TOKENS + CALL_TOOL_TOKENS + announcement + (eagerTokens - deferredToolTokens),
    deferredTools: deferred.size,
    deferredToolTokens,
    ...(options.toolList !== undefined && { toolList: options.toolList }),
  });
}

/** B1/B3 for the gateway: the deferred set of the current pool. */
export function deferredNames(
  pool: PoolView & { isServerInitializing?(server: string): boolean },
  mode: GatewayMode,
  contextWindow: number,
  session: SessionCostOptions = {},
): Set<string> {
  const initializingServers = new Set(
    pool.tools.flatMap((t) =>
      t.origin.kind === 'mcp' && pool.isServerInitializing?.(t.origin.server) ? [t.origin.server] : [],
    ),
  );
  const p = plan({
    tools: pool.tools,
    pendingServers: pool.pendingServers,
    option: optionFor(pool, mode, session),
    contextWindow,
    deferral: { initializingServers },
    announce: 'none',
  });
  return new Set(p.deferred);
}

/** The plan's mode: a plain `auto` becomes `always` or `never` by the session cost model (E5). */
function optionFor(pool: PoolView, mode: GatewayMode, session: SessionCostOptions): string {
  if (mode.mode !== 'auto') return mode.mode;
  if (!mode.costModel) return `auto:${mode.autoPercent}`;
  return sessionCostOf(pool, session).defer ? 'always' : 'never';
}

/**
 * H1/H2 — what the first request costs in tool-definition tokens, everything eager vs deferred,
 * per server and in total, and what each mode would decide. Pure given a token counter.
 */
import { fullAnnouncement, groupKeyOf, LOCAL_GROUP } from '../core/announce.js';
import { boundedJsonTextTokens } from '../core/announce-budget.js';
import { plan, type Plan, type PlanInput } from '../core/plan.js';
import type { FailedServer, HiddenTool, PoolView } from '../core/catalog.js';
import { toolDefinitionJson, type ToolDefinitionLike, type ToolSpec } from '../core/tool.js';
import type { TextTokenCounter } from './tokenizer.js';

export interface ServerCost {
  readonly server: string;
  readonly tools: number;
  /** Every schema of this server sent up front. */
  readonly eagerTokens: number;
  /** What the server costs deferred: its loaded tools plus its share of the announcement. */
  readonly deferredTokens: number;
}

export interface ModeCost {
  readonly mode: string;
  readonly useToolSearch: boolean;
  readonly tokens: number;
  readonly reason: string;
}

export interface InspectReport {
  readonly tools: number;
  readonly servers: number;
  readonly pendingServers: readonly string[];
  /** C12/H3: servers whose tools are missing from this report because they failed, and why. */
  readonly failedServers: readonly FailedServer[];
  /** G7: tools the config's `tools` sections hide (not counted: no client ever sees them). */
  readonly hiddenTools: readonly HiddenTool[];
  readonly eagerTokens: number;
  readonly deferredTokens: number;
  /** 1 − deferred / eager. */
  readonly savings: number;
  /** Parts of `deferredTokens`; `announcement` is what the search tool's description grows by. */
  readonly breakdown: {
    readonly searchTool: number;
    readonly announcement: number;
    readonly extraTools: number;
    readonly loadedTools: number;
  };
  readonly announcementForm: 'list' | 'grouped' | 'none';
  /** E4: servers the grouped announcement names (the rest share one line); absent for the list form. */
  readonly announcedServers?: number;
  /** What the announcement would cost as a plain name list (E1), for comparison with E3. */
  readonly listAnnouncementTokens: number;
  readonly perServer: readonly ServerCost[];
  readonly modes: readonly ModeCost[];
  readonly tokenizer: string;
  readonly estimate: boolean;
}

export interface InspectOptions {
  readonly count: TextTokenCounter;
  readonly tokenizer: string;
  readonly contextWindow?: number;
  /** E4: the announcement's own token budget, as the gateway computes it (`gatewayAnnouncementBudget`). */
  readonly announceTokenBudget?: number;
  /**
   * Tools sent besides the search tool whenever deferral is on (the gateway's `call_tool`), so the
   * deferred figure is what a client is really sent: `inspect` and `serve` print one figure.
   */
  readonly extraTools?: readonly ToolDefinitionLike[];
}

/** Tokens of tool definitions as a provider receives them (ToolSpecs or listed MCP tools). */
export function definitionTokens(tools: readonly ToolDefinitionLike[], count: TextTokenCounter): number {
  let total = 0;
  for (const tool of tools) total += count(toolDefinitionJson(tool));
  return total;
}

/** Tokens a plan sends as tool definitions and announcement on the first request. */
export function firstRequestTokens(p: Plan, count: TextTokenCounter): number {
  return definitionTokens(
    p.visibleTools.map((t) => announced(t, p)),
    count,
  );
}

/** The search tool as sent: the announcement appended to its description (what the gateway lists). */
function announced(tool: ToolSpec, p: Plan): ToolSpec {
  if (tool !== p.searchTool || !p.announcement) return tool;
  return { ...tool, description: `${tool.description}\n${p.announcement.text}` };
}

function announcementShare(group: string, p: Plan, tools: readonly ToolSpec[], count: TextTokenCounter): number {
  if (!p.announcement) return 0;
  if (p.announcement.form === 'grouped')
    return count(`${group}: ${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}\n`);
  return count(
    tools
      .filter((t) => p.deferred.includes(t.name))
      .map((t) => `${t.name}\n`)
      .join(''),
  );
}

function perServerCosts(pool: readonly ToolSpec[], p: Plan, count: TextTokenCounter): ServerCost[] {
  const groups = new Map<string, ToolSpec[]>();
  for (const t of pool) {
    const key = t.origin.kind === 'mcp' ? t.origin.server : LOCAL_GROUP;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const visible = new Set(p.visibleTools.map((t) => t.name));
  return [...groups]
    .map(([server, tools]) => ({
      server,
      tools: tools.length,
      eagerTokens: definitionTokens(tools, count),
      deferredTokens:
        definitionTokens(
          tools.filter((t) => visible.has(t.name)),
          count,
        ) + announcementShare(tools[0] ? groupKeyOf(tools[0]) : server, p, tools, count),
    }))
    .sort((a, b) => b.eagerTokens - a.eagerTokens);
}

/**
 * E4 as the gateway applies it: the announcement's budget is what the gateway leaves it, counted
 * JSON-escaped, as it travels in the search tool's description.
 */
function budgetInput(options: InspectOptions): Pick<PlanInput, 'alongsideTools' | 'announceOptions'> {
  return {
    alongsideTools: options.extraTools ?? [],
    announceOptions: {
      countTextTokens: boundedJsonTextTokens,
      ...(options.announceTokenBudget !== undefined && { tokenBudget: options.announceTokenBudget }),
    },
  };
}

function modeCosts(pool: PoolView, options: InspectOptions, deferrable: ReadonlySet<string>): ModeCost[] {
  return ['always', 'auto', 'never'].map((mode) => {
    const p = plan({
      tools: pool.tools,
      pendingServers: pool.pendingServers,
      option: mode,
      // H2: the auto threshold compares the same count this report prints, not a chars/2.5 estimate.
      deferredTokens: {
        tokens: definitionTokens(
          pool.tools.filter((t) => deferrable.has(t.name)),
          options.count,
        ),
        source: 'counter',
      },
      ...(options.contextWindow !== undefined && { contextWindow: options.contextWindow }),
      ...budgetInput(options),
    });
    const extra = p.useToolSearch ? definitionTokens(options.extraTools ?? [], options.count) : 0;
    return {
      mode,
      useToolSearch: p.useToolSearch,
      tokens: firstRequestTokens(p, options.count) + extra,
      reason: p.gates.definitive.reason,
    };
  });
}

export function inspectPool(pool: PoolView, options: InspectOptions): InspectReport {
  const tools = pool.tools;
  const deferredPlan = plan({
    tools,
    pendingServers: pool.pendingServers,
    option: 'always',
    ...budgetInput(options),
  });
  const eagerTokens = definitionTokens(tools, options.count);
  const searchTool = deferredPlan.searchTool ? definitionTokens([deferredPlan.searchTool], options.count) : 0;
  // The announcement travels inside the search tool's description (as the gateway sends it), so it
  // is counted there: the figure matches what `serve` counts on its own tools/list.
  const announcedSearchTool = deferredPlan.searchTool
    ? definitionTokens([announced(deferredPlan.searchTool, deferredPlan)], options.count)
    : 0;
  const announcement = announcedSearchTool - searchTool;
  const extraTools = deferredPlan.searchTool ? definitionTokens(options.extraTools ?? [], options.count) : 0;
  const loadedTools = definitionTokens(
    deferredPlan.visibleTools.filter((t) => t !== deferredPlan.searchTool),
    options.count,
  );
  const deferredTokens = announcedSearchTool + extraTools + loadedTools;
  return {
    tools: tools.length,
    servers: new Set(tools.flatMap((t) => (t.origin.kind === 'mcp' ? [t.origin.server] : []))).size,
    pendingServers: pool.pendingServers,
    failedServers: pool.failedServers ?? [],
    hiddenTools: pool.hiddenTools ?? [],
    eagerTokens,
    deferredTokens,
    savings: eagerTokens > 0 ? Math.max(0, 1 - deferredTokens / eagerTokens) : 0,
    breakdown: { searchTool, announcement, extraTools, loadedTools },
    announcementForm: deferredPlan.announcement?.form ?? 'none',
    ...(deferredPlan.announcement?.form === 'grouped' && { announcedServers: deferredPlan.announcement.added.length }),
    listAnnouncementTokens: deferredPlan.deferred.length
      ? options.count(
          fullAnnouncement(
            tools.filter((t) => deferredPlan.deferred.includes(t.name)),
            { tokenBudget: Number.POSITIVE_INFINITY },
          ).text,
        )
      : 0,
    perServer: perServerCosts(tools, deferredPlan, options.count),
    modes: modeCosts(pool, options, new Set(deferredPlan.deferred)),
    tokenizer: options.tokenizer,
    estimate: true,
  };
}

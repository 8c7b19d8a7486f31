/**
 * The two tools the gateway adds: `tool_search` (core's wire contract; its description carries
 * core's E1–E4 announcement of what is deferred, refreshed with every list_changed) and
 * `call_tool` (call-through for clients that never refresh their tool list). Together they stay
 * within the deferred-token budget (E4) at any catalog size.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { fullAnnouncement, groupKeyOf } from '../../core/announce.js';
import { boundedJsonTextTokens, DEFAULT_DEFERRED_TOKEN_BUDGET, type GroupRanking } from '../../core/announce-budget.js';
import type { PoolView } from '../../core/catalog.js';
import { CALL_TOOL_INPUT_SCHEMA, CALL_TOOL_NAME, SEARCH_TOOL_NAME, searchToolSpec } from '../../core/search-tool.js';
import { ALWAYS_LOAD_META_KEY, type ToolSpec } from '../../core/tool.js';
import { RUN_CODE_TOOL_NAME } from '../../sandbox/tool-contract.js';

export { CALL_TOOL_NAME } from '../../core/search-tool.js';

/**
 * G8: the gateway's own tools ask clients that defer MCP tools themselves (Claude Code defers every
 * MCP tool by default) to load them at once: searching for the search tool would be a wasted turn.
 */
const OWN_TOOL_META = { [ALWAYS_LOAD_META_KEY]: true } as const;

/** E4: tokens for `tool_search` (with its announcement) + `call_tool` on every `tools/list`. */
export const GATEWAY_DEFERRED_TOKEN_BUDGET = DEFAULT_DEFERRED_TOKEN_BUDGET;

/**
 * o200k tokens of `tool_search` without its announcement and of `call_tool`, as `inspect` counts a
 * definition; constants, so pinned here (test/gateway/announce-budget.test.ts checks them) instead
 * of estimated: the bounded estimate overcounts JSON-heavy definitions ~1.7×, which would take ~280
 * tokens from the announcement for nothing.
 */
export const SEARCH_TOOL_TOKENS = 290;
export const CALL_TOOL_TOKENS = 107;

/** Servers still connecting named in the description before "and N more" (C8; a cold start may have hundreds). */
const PENDING_NAMED = 10;

export interface AnnounceBudget extends GroupRanking {
  /** Tokens for the search tool + announcement + `call_tool` (default GATEWAY_DEFERRED_TOKEN_BUDGET). */
  readonly tokenBudget?: number;
  /** Whether `call_tool` is listed beside the search tool (its tokens come out of the budget). */
  readonly callThrough?: boolean;
}

export function searchToolDefinition(pool: PoolView, deferred: ReadonlySet<string>, budget: AnnounceBudget = {}): Tool {
  return searchToolAnnouncing(pool, deferred, budget).tool;
}

/** The search tool, and how many servers its announcement left behind the one line for the rest (E4). */
export function searchToolAnnouncing(
  pool: PoolView,
  deferred: ReadonlySet<string>,
  budget: AnnounceBudget = {},
): { tool: Tool; leftOut: number } {
  const spec = searchToolSpec();
  const { text, leftOut } = announcement(pool, deferred, budget);
  const tool: Tool = {
    name: spec.name,
    description: `${spec.description}\n${text}`,
    inputSchema: spec.inputSchema as Tool['inputSchema'],
    _meta: { ...OWN_TOOL_META },
  };
  return { tool, leftOut };
}

/** E1–E4 via core (text counted as the client receives it, JSON-escaped), within what the budget leaves after the two tools; pending servers named (C8). */
export function announceDeferred(pool: PoolView, deferred: ReadonlySet<string>, budget: AnnounceBudget = {}): string {
  return announcement(pool, deferred, budget).text;
}

function announcement(
  pool: PoolView,
  deferred: ReadonlySet<string>,
  budget: AnnounceBudget,
): { text: string; leftOut: number } {
  const tools = pool.tools.filter((t) => deferred.has(t.name));
  const pending = pendingLine(pool.pendingServers);
  const left = gatewayAnnouncementBudget(budget) - (pending ? boundedJsonTextTokens(pending) : 0);
  const full = fullAnnouncement(tools, {
    tokenBudget: left,
    countTextTokens: boundedJsonTextTokens,
    ...(budget.recentServers !== undefined && { recentServers: budget.recentServers }),
    ...(budget.priority !== undefined && { priority: budget.priority }),
  });
  const leftOut = full.form === 'grouped' ? new Set(tools.map(groupKeyOf)).size - full.added.length : 0;
  return { text: pending ? `${full.text}\n${pending}` : full.text, leftOut };
}

/** E4: what the budget leaves for the announcement once `tool_search` and `call_tool` are paid for. */
export function gatewayAnnouncementBudget(budget: AnnounceBudget = {}): number {
  const fixed = SEARCH_TOOL_TOKENS + (budget.callThrough === false ? 0 : CALL_TOOL_TOKENS);
  return Math.max(0, (budget.tokenBudget ?? GATEWAY_DEFERRED_TOKEN_BUDGET) - fixed);
}

function pendingLine(pending: readonly string[]): string | undefined {
  if (pending.length === 0) return undefined;
  const named = pending.slice(0, PENDING_NAMED).join(', ');
  const more = pending.length > PENDING_NAMED ? ` and ${pending.length - PENDING_NAMED} more` : '';
  return `Still connecting (search again shortly for their tools): ${named}${more}.`;
}

/**
 * The server's instructions to clients: how to find deferred tools and call them (E5: per tool-list
 * mode), and (G11) that `run_code` can search and call many tools in one script when code mode is on.
 */
export function gatewayInstructions(toolList: 'growing' | 'fixed', codeMode = false): string {
  const find = `Most tools are deferred: find them with ${SEARCH_TOOL_NAME} (keywords, "select:<name>", or "mcp__<server>"). `;
  const call =
    toolList === 'fixed'
      ? `Your tool list never changes: call what it finds through ${CALL_TOOL_NAME} {"name", "arguments"}.`
      : `Tools it loads can be called by name, or through ${CALL_TOOL_NAME} if your tool list has not refreshed.`;
  const script = codeMode
    ? ` For a task of several calls, ${RUN_CODE_TOOL_NAME} runs one JavaScript body that searches and calls tools and returns only its result.`
    : '';
  return `${find}${call}${script}`;
}

export function callToolDefinition(): Tool {
  return {
    name: CALL_TOOL_NAME,
    description:
      'Call a tool that tool_search found, by its name, when it does not appear in your tool list. ' +
      'Pass the tool name and its arguments as described in the tool_search result.',
    inputSchema: CALL_TOOL_INPUT_SCHEMA as Tool['inputSchema'],
    _meta: { ...OWN_TOOL_META },
  };
}

/** The tool as its server listed it (title, annotations, outputSchema, icons, …), under its gateway name. */
export function toMcpTool(tool: ToolSpec): Tool {
  // Name, title and description first: search results show this JSON to the model.
  return {
    name: tool.name,
    ...(tool.mcpFields?.['title'] !== undefined && { title: tool.mcpFields['title'] as string }),
    description: tool.description,
    inputSchema: (tool.inputSchemaDialect === undefined
      ? tool.inputSchema
      : { $schema: tool.inputSchemaDialect, ...tool.inputSchema }) as Tool['inputSchema'],
    ...tool.mcpFields,
    ...(tool.meta !== undefined && { _meta: { ...tool.meta } }),
  };
}

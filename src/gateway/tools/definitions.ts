/**
 * The two tools the gateway adds: `tool_search` (core's wire contract; its description carries
 * core's E1/E3 announcement of what is deferred, refreshed with every list_changed) and
 * `call_tool` (call-through for clients that never refresh their tool list).
 */
import type { Tool } from '@modelcontextprotocol/server';
import { fullAnnouncement } from '../../core/announce.js';
import type { PoolView } from '../../core/catalog.js';
import { searchToolSpec } from '../../core/search-tool.js';
import type { ToolSpec } from '../../core/tool.js';

export const CALL_TOOL_NAME = 'call_tool';

/**
 * Above this many tokens the announcement switches from names (E1) to per-server counts (E3).
 * Lower than core's default: a tool description is paid on every request.
 */
export const GATEWAY_ANNOUNCE_TOKEN_BUDGET = 1_500;

export function searchToolDefinition(pool: PoolView, deferred: ReadonlySet<string>): Tool {
  const spec = searchToolSpec();
  return {
    name: spec.name,
    description: `${spec.description}\n${announceDeferred(pool, deferred)}`,
    inputSchema: spec.inputSchema as Tool['inputSchema'],
  };
}

/** E1/E3 via core; pending servers always named (C8). */
export function announceDeferred(pool: PoolView, deferred: ReadonlySet<string>): string {
  const tools = pool.tools.filter((t) => deferred.has(t.name));
  const lines = [fullAnnouncement(tools, { tokenBudget: GATEWAY_ANNOUNCE_TOKEN_BUDGET }).text];
  if (pool.pendingServers.length > 0)
    lines.push(`Still connecting (search again shortly for their tools): ${pool.pendingServers.join(', ')}.`);
  return lines.join('\n');
}

export function callToolDefinition(): Tool {
  return {
    name: CALL_TOOL_NAME,
    description:
      'Call a tool that tool_search loaded, by name, when it does not appear in your tool list yet. ' +
      'Pass the tool name and its arguments as described in the tool_search result.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The loaded tool\'s name, e.g. "mcp__memory__create_entities".' },
        arguments: { type: 'object', description: "The tool's arguments, matching its input schema." },
      },
      required: ['name'],
    },
  };
}

/** The tool as its server listed it (title, annotations, outputSchema, icons, …), under its gateway name. */
export function toMcpTool(tool: ToolSpec): Tool {
  // Name, title and description first: search results show this JSON to the model.
  return {
    name: tool.name,
    ...(tool.mcpFields?.['title'] !== undefined && { title: tool.mcpFields['title'] as string }),
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    ...tool.mcpFields,
    ...(tool.meta !== undefined && { _meta: { ...tool.meta } }),
  };
}

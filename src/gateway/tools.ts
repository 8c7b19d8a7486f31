/**
 * The two tools the gateway adds: `tool_search` (core's wire contract, plus a compact E1/E3
 * announcement of what is deferred) and `call_tool` (call-through for clients that never refresh).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PoolView } from '../core/catalog.js';
import { searchToolSpec } from '../core/search-tool.js';

export const CALL_TOOL_NAME = 'call_tool';

/** Above this many deferred names, announce by server with counts (E3) instead of by name (E1). */
export const ANNOUNCE_NAMES_LIMIT = 60;

export function searchToolDefinition(pool: PoolView, deferred: ReadonlySet<string>): Tool {
  const spec = searchToolSpec();
  return {
    name: spec.name,
    description: `${spec.description}\n${announceDeferred(pool, deferred)}`,
    inputSchema: spec.inputSchema as Tool['inputSchema'],
  };
}

/** E1 (names) when short, E3 (per-server counts) when long; pending servers always named (C8). */
export function announceDeferred(pool: PoolView, deferred: ReadonlySet<string>): string {
  const lines: string[] = [];
  if (deferred.size <= ANNOUNCE_NAMES_LIMIT) {
    lines.push(`<available-deferred-tools>\n${[...deferred].sort().join('\n')}\n</available-deferred-tools>`);
  } else {
    const perServer = new Map<string, number>();
    for (const tool of pool.tools) {
      if (!deferred.has(tool.name)) continue;
      const group = tool.origin.kind === 'mcp' ? `mcp__${tool.origin.server}` : 'local';
      perServer.set(group, (perServer.get(group) ?? 0) + 1);
    }
    const groups = [...perServer].sort().map(([group, count]) => `${group} (${count} tools)`);
    lines.push(`<available-deferred-tools>\n${groups.join('\n')}\n</available-deferred-tools>`);
    lines.push('Search by capability, or "mcp__<server>" for one server\'s tools.');
  }
  if (pool.pendingServers.length > 0) lines.push(`Still connecting: ${pool.pendingServers.join(', ')}.`);
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
        arguments: { type: 'object', description: 'The tool\'s arguments, matching its input schema.' },
      },
      required: ['name'],
    },
  };
}

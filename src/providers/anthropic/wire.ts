/**
 * ToolSpec → Anthropic wire tool. `name` is already provider-safe (A3); `$schema` was stripped at
 * admission (normalizeInputSchema), so the schema goes out as is.
 */
import type {
  Tool,
  ToolSearchToolBm25_20251119,
  ToolSearchToolRegex20251119,
} from '@anthropic-ai/sdk/resources/messages';
import type { ToolSpec } from '../../core/tool.js';

export function toAnthropicTool(tool: ToolSpec, deferLoading = false): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.inputSchema, type: 'object' },
    ...(deferLoading && { defer_loading: true }),
  };
}

/** F1: Anthropic's server-side search tools, used instead of the client-side one when chosen. */
export type ServerSearchKind = 'regex' | 'bm25';
export type AnthropicServerSearchTool = ToolSearchToolRegex20251119 | ToolSearchToolBm25_20251119;

export function serverSearchTool(kind: ServerSearchKind): AnthropicServerSearchTool {
  return kind === 'regex'
    ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }
    : { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
}

export function isServerSearchToolType(type: unknown): boolean {
  return typeof type === 'string' && type.startsWith('tool_search_tool_');
}

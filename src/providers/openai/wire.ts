/**
 * ToolSpec → OpenAI wire tools. Names are already provider-safe (A3). `$schema` is stripped
 * again here because OpenAI's strict validation rejects it and a caller may bypass admission.
 */
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { FunctionTool, NamespaceTool, Tool, ToolSearchTool } from 'openai/resources/responses/responses';
import { toProviderSafeName } from '../../core/names.js';
import type { JsonSchema, ToolSpec } from '../../core/tool.js';

export function withoutDialect(schema: JsonSchema): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return { ...rest, type: 'object' };
}

export function toResponsesFunction(tool: ToolSpec, deferLoading = false): FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: withoutDialect(tool.inputSchema),
    strict: false,
    ...(deferLoading && { defer_loading: true }),
  };
}

export function toChatFunction(tool: ToolSpec): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: withoutDialect(tool.inputSchema) },
  };
}

/** F5: the client-executed tool_search, described and parameterized like our search tool. */
export function toolSearchTool(search: ToolSpec): ToolSearchTool {
  return {
    type: 'tool_search',
    execution: 'client',
    description: search.description,
    parameters: withoutDialect(search.inputSchema),
  };
}

export function namespaceName(server: string): string {
  return toProviderSafeName(server);
}

/**
 * F5: tools in Responses form — local tools as functions, MCP tools grouped into one namespace per
 * server (in first-appearance order, so the array is stable for a stable pool).
 */
export function toResponsesTools(tools: readonly ToolSpec[], deferred: ReadonlySet<string>): Tool[] {
  const out: Tool[] = [];
  const namespaces = new Map<string, NamespaceTool>();
  for (const tool of tools) {
    const fn = toResponsesFunction(tool, deferred.has(tool.name));
    if (tool.origin.kind !== 'mcp') {
      out.push(fn);
      continue;
    }
    const server = tool.origin.server;
    let ns = namespaces.get(server);
    if (!ns) {
      ns = {
        type: 'namespace',
        name: namespaceName(server),
        description: `Tools of the MCP server "${server}".`,
        tools: [],
      };
      namespaces.set(server, ns);
      out.push(ns);
    }
    ns.tools.push(fn);
  }
  return out;
}

/** Every function name a tools array defines, namespaces included. */
export function functionNames(tools: readonly Tool[]): string[] {
  return tools.flatMap((t) =>
    t.type === 'function' ? [t.name] : t.type === 'namespace' ? t.tools.map((f) => f.name) : [],
  );
}

/**
 * Running tool calls, shared by every provider loop: infrastructure flagging (F8), the
 * schema-not-sent message for never-loaded tools (F3), and a tool's result as text.
 */
import {
  searchInstructions,
  SERVER_SEARCH_TOOL_NAMES,
  type SearchInstructions,
} from '../../core/search-instructions.js';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.js';
import type { ToolSpec } from '../../core/tool.js';
import { errorMessage } from '../../util/errors.js';

/** The TanStack AI discovery tool's name (its wire contract, F6). */
export const DISCOVERY_TOOL_NAME = '__lazy__tool__discovery__';
/** Anthropic's server-side search tools (F1). */
export const ANTHROPIC_SERVER_SEARCH_NAMES = [SERVER_SEARCH_TOOL_NAMES.regex, SERVER_SEARCH_TOOL_NAMES.bm25] as const;

const INFRASTRUCTURE = new Set<string>([SEARCH_TOOL_NAME, DISCOVERY_TOOL_NAME, ...ANTHROPIC_SERVER_SEARCH_NAMES]);

/** F8: a call that loads tools rather than doing the user's work; a UI may hide it. */
export function isInfrastructureCall(name: string, searchToolName: string = SEARCH_TOOL_NAME): boolean {
  return name === searchToolName || INFRASTRUCTURE.has(name);
}

/**
 * F3: the actionable error for a call to a deferred tool that was never loaded. The load
 * instruction comes from the search mode actually in the request (a client search tool name, or
 * the plan's `instructions`), so it never names a tool or query form the model does not have.
 */
export function undiscoveredToolMessage(name: string, search: string | SearchInstructions = SEARCH_TOOL_NAME): string {
  const how = typeof search === 'string' ? searchInstructions('client', search) : search;
  return `Tool "${name}" is not loaded: it is deferred and its schema was not sent, so this call was not run. ${how.loadFirst(name)}`;
}

/** Runs a tool the catalog has no handler for (e.g. routes MCP calls to their server). */
export type ToolExecutor = (call: {
  name: string;
  input: Record<string, unknown>;
  tool?: ToolSpec;
}) => unknown | Promise<unknown>;

export interface ToolOutcome {
  readonly text: string;
  readonly isError: boolean;
}

/** One tool call as a loop reports it; `infrastructure` marks search calls (F8). */
export interface StepEvent {
  readonly iteration: number;
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly output: string;
  readonly isError: boolean;
  readonly infrastructure: boolean;
}

/** A tool result as text: strings as is, MCP `CallToolResult` text parts joined, else JSON. */
export function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  const content = (value as { content?: unknown } | null)?.content;
  if (Array.isArray(content) && content.every((c) => typeof c === 'object' && c !== null && 'type' in c)) {
    const texts = content.flatMap((c: { type: unknown; text?: unknown }) =>
      c.type === 'text' && typeof c.text === 'string' ? [c.text] : [],
    );
    if (texts.length === content.length) return texts.join('\n');
  }
  return JSON.stringify(value);
}

function isErrorResult(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { isError?: unknown }).isError === true;
}

function asRecord(input: unknown): Record<string, unknown> {
  if (typeof input === 'string') {
    try {
      return asRecord(JSON.parse(input));
    } catch {
      return {};
    }
  }
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** Run a (non-search) tool: its handler, else the executor; a throw becomes an error result. */
export async function runTool(
  name: string,
  rawInput: unknown,
  tool: ToolSpec | undefined,
  executor?: ToolExecutor,
): Promise<ToolOutcome> {
  const input = asRecord(rawInput);
  try {
    if (tool?.handler) {
      const value = await tool.handler(input);
      return { text: resultText(value), isError: isErrorResult(value) };
    }
    if (executor) {
      const value = await executor({ name, input, ...(tool && { tool }) });
      return { text: resultText(value), isError: isErrorResult(value) };
    }
    return { text: `Tool "${name}" has no handler in this process.`, isError: true };
  } catch (error) {
    return { text: `Tool "${name}" failed: ${errorMessage(error)}`, isError: true };
  }
}

/** What `mcpExecutor` needs of an MCP hub (`McpHub` from toolsearch/mcp fits). */
export interface McpToolCaller {
  callTool(server: string, toolName: string, args: Record<string, unknown>): Promise<unknown>;
}

/** Route calls of MCP tools to their server under the server's own tool name (A3). */
export function mcpExecutor(hub: McpToolCaller): ToolExecutor {
  return ({ name, input, tool }) => {
    if (tool?.origin.kind !== 'mcp') throw new Error(`Tool "${name}" is not an MCP tool and has no handler.`);
    return hub.callTool(tool.origin.server, tool.originalName ?? name, input);
  };
}

/**
 * E5: `call_tool`'s input in a library adapter's fixed list: the target's name and arguments (a
 * JSON string or an object). The gateway's, MCP's object form, is read in gateway/tools/calls.ts.
 */
export function callThroughInput(input: unknown): { name: string; arguments: unknown } | undefined {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return typeof record['name'] === 'string'
    ? { name: record['name'], arguments: record['arguments'] ?? {} }
    : undefined;
}

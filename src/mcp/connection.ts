/**
 * The hub's view of one upstream MCP server. Kept SDK-free so the SDK (v1 today, maybe the split
 * v2 packages later) can be swapped behind `createSdkConnection` without touching the hub.
 */

/** A tool as an upstream server lists it (the MCP `Tool` fields the hub reads). */
export interface UpstreamTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** An MCP `CallToolResult`, passed through unchanged. */
export interface UpstreamCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

export interface McpConnectionEvents {
  /** The server sent `notifications/tools/list_changed`. */
  onToolsChanged(): void;
  /** The connection ended without `close()` being called (process died, socket dropped). */
  onClosed(reason: string): void;
  /** Lines the server wrote to stderr (stdio servers), for debug logs. */
  onStderr?(line: string): void;
  /** A listed tool that is not a valid MCP tool (bad inputSchema, …); it is left out, the rest kept. */
  onInvalidTool?(tool: string, reason: string): void;
  /** A G5 limit was applied to what the server sent (a list cut at a cap, …). */
  onLimit?(message: string): void;
}

export interface McpConnection {
  readonly server: string;
  /** Spawn / open and run the initialize handshake. Rejects on failure or when `signal` aborts. */
  connect(signal: AbortSignal): Promise<void>;
  /** Every tool, all pages. */
  listTools(): Promise<UpstreamTool[]>;
  callTool(name: string, args: Record<string, unknown>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<UpstreamCallResult>;
  /** What the server said about itself at initialize (after `connect`): its title and instructions. */
  serverInfo?(): { title?: string; instructions?: string } | undefined;
  /** Process id of a stdio server (diagnostics, tests). */
  readonly pid: number | undefined;
  /** Deliberate close: no `onClosed` follows. Safe to call twice. */
  close(): Promise<void>;
}

export type ConnectionFactory = (server: string, events: McpConnectionEvents) => McpConnection;

/**
 * Typed errors of the MCP hub. Each has a stable `name` and a message that says what to do next.
 */
import { ToolsearchError } from '../core/errors.js';

/** G1: a config file that cannot be used. The message names the file and the key. */
export class McpConfigError extends ToolsearchError {
  override name = 'McpConfigError';
  constructor(
    readonly source: string,
    readonly key: string,
    readonly reason: string,
  ) {
    super(`Invalid MCP config ${source}${key ? ` at "${key}"` : ''}: ${reason}`);
  }
}

/**
 * A call routed to an upstream server failed (not connected, timed out, transport error). `code`
 * is the JSON-RPC error code the server (or its SDK) gave, kept so a proxy can pass it on.
 */
export class UpstreamError extends ToolsearchError {
  override name = 'UpstreamError';
  constructor(
    readonly server: string,
    readonly reason: string,
    readonly code?: number,
  ) {
    super(`MCP server "${server}" ${reason}`);
  }
}

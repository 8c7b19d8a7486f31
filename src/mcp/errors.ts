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

/** A call routed to an upstream server failed (not connected, timed out, transport error). */
export class UpstreamError extends ToolsearchError {
  override name = 'UpstreamError';
  constructor(
    readonly server: string,
    readonly reason: string,
  ) {
    super(`MCP server "${server}" ${reason}`);
  }
}

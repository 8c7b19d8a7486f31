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

/** What a refusing gateway writes to stderr; the hub that spawned it recognizes the entry by it. */
export const NESTED_GATEWAY_NOTICE = 'this config is already served by the toolsearch gateway that started this one';

/**
 * G1: a gateway started by a gateway that already serves the same config (a config that lists
 * the gateway through a wrapper the hub cannot see through): serving it again would recurse.
 */
export class NestedGatewayError extends ToolsearchError {
  override name = 'NestedGatewayError';
  constructor(readonly source: string) {
    super(`not starting: ${NESTED_GATEWAY_NOTICE} (${source}); remove the gateway's own entry from that config`);
  }
}

/** H1: a one-shot command (`search`, `inspect`) whose configured servers all failed to start. */
export class AllServersFailedError extends ToolsearchError {
  override name = 'AllServersFailedError';
  constructor(readonly failed: readonly { readonly server: string; readonly reason: string }[]) {
    const [first] = failed;
    const others = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
    const which = failed.length === 1 ? 'the only MCP server' : `all ${failed.length} MCP servers`;
    super(`${which} failed to start: "${first?.server}" ${first?.reason}${others}`);
  }
}

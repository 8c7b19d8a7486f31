/** G3 — the MCP gateway: per-session tool lists over one catalog, stdio and Streamable HTTP. */
export * from './gateway.js';
export * from './http.js';
export * from './run.js';
export * from './search.js';
export * from './sessions.js';
export * from './redis-store.js';
export * from './stdio.js';
export * from './summary.js';
export { CALL_TOOL_NAME, GATEWAY_ANNOUNCE_TOKEN_BUDGET, announceDeferred } from './tools.js';
export { parseGatewayMode, deferredNames, type GatewayMode } from './deferral.js';

/** G3 — the MCP gateway: per-session tool lists over one catalog, stdio and Streamable HTTP. */
export * from './gateway.js';
export * from './http.js';
export * from './run.js';
export * from './search.js';
export * from './sessions.js';
export * from './redis-store.js';
export * from './redis-bus.js';
export * from './bus.js';
export * from './errors.js';
export { connectRedisBackend, type RedisBackend, type RedisBackendOptions } from './redis-backend.js';
export {
  parseSessionStoreUrl,
  SESSION_STORE_ENV,
  REDIS_PASSWORD_ENV,
  REDIS_PASSWORD_FILE_ENV,
  type RedisConnectionOptions,
} from './store-url.js';
export * from './stdio.js';
export * from './summary.js';
export { GATEWAY_CAPABILITIES, GatewayProxy, isUpstreamProxy, type UpstreamProxy } from './proxy.js';
export { COALESCED_NOTIFICATIONS, LIST_CHANGED_COALESCE_MS } from './notifications.js';
export { LIST_PAGE_SIZE } from './cursor.js';
export { CLIENT_ANSWER_TIMEOUT_MS } from './server-requests.js';
export { CALL_TOOL_NAME, GATEWAY_ANNOUNCE_TOKEN_BUDGET, announceDeferred } from './tools.js';
export { parseGatewayMode, deferredNames, type GatewayMode } from './deferral.js';
export * from './status.js';
export * from './readiness.js';
export { DEFAULT_PENDING_WAIT_MS } from './pending-wait.js';

/** G3 — the MCP gateway: per-session tool lists over one catalog, stdio and Streamable HTTP. */
export * from './gateway.js';
export * from './transports/http/server.js';
export * from './create.js';
export * from './tools/search.js';
export * from './sessions/store.js';
export * from './redis/store.js';
export * from './redis/bus.js';
export * from './sessions/bus.js';
export * from './errors.js';
export { connectRedisBackend, type RedisBackend, type RedisBackendOptions } from './redis/backend.js';
export {
  parseSessionStoreUrl,
  SESSION_STORE_ENV,
  REDIS_PASSWORD_ENV,
  REDIS_PASSWORD_FILE_ENV,
  type RedisConnectionOptions,
} from './redis/store-url.js';
export * from './transports/stdio.js';
export * from './status/summary.js';
export { GATEWAY_CAPABILITIES, GatewayProxy, isUpstreamProxy, type UpstreamProxy } from './proxy/proxy.js';
export { COALESCED_NOTIFICATIONS, LIST_CHANGED_COALESCE_MS } from './proxy/notifications.js';
export { LIST_PAGE_SIZE } from './proxy/cursor.js';
export { CLIENT_ANSWER_TIMEOUT_MS } from './proxy/server-requests.js';
export { CALL_TOOL_NAME, GATEWAY_ANNOUNCE_TOKEN_BUDGET, announceDeferred } from './tools/definitions.js';
export { parseGatewayMode, deferredNames, type GatewayMode } from './tools/deferral.js';
export * from './status/routes.js';
export * from './status/readiness.js';
export { DEFAULT_PENDING_WAIT_MS } from './tools/pending-wait.js';

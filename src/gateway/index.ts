/**
 * `toolsearch/gateway` (G3): the MCP gateway — per-session tool lists over one catalog, stdio and
 * Streamable HTTP, the optional Redis store and bus, and the status routes. Every public name is
 * listed here by hand; test/repo/exports.test.ts keeps the list from growing by accident. To add
 * one: export it here, document it in the README, and add it to that test's list.
 */
export {
  GATEWAY_SERVER_INFO,
  type GatewayOptions,
  toMcpTool,
  ToolsearchGateway,
  type UpstreamCaller,
} from './gateway.js';
export {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PATH,
  DEFAULT_IDLE_SESSION_TIMEOUT_MS,
  type ExtraRoutes,
  FULL_RETRY_AFTER_SECONDS,
  type HttpGatewayOptions,
  isLoopbackHost,
  type RunningHttpGateway,
  startHttpGateway,
} from './transports/http/server.js';
export { createGatewayFromConfig, type GatewayFromConfigOptions, type GatewayStack } from './create.js';
export {
  defaultGatewaySearcher,
  formatSearchOutcome,
  type GatewaySearcher,
  type SearchOutcome,
  type SearchPool,
} from './tools/search.js';
export { InMemorySessionStore, type SessionRecord, type SessionStore } from './sessions/store.js';
export {
  DEFAULT_REDIS_PREFIX,
  DEFAULT_SESSION_TTL_SECONDS,
  type RedisEvalClient,
  RedisSessionStore,
  type RedisSessionStoreOptions,
} from './redis/store.js';
export {
  DEFAULT_REDIS_CHANNEL,
  RedisNotificationBus,
  type RedisNotificationBusOptions,
  type RedisPublisher,
  type RedisSubscriber,
} from './redis/bus.js';
export {
  type BusEvent,
  type BusNotification,
  InMemoryNotificationBus,
  type NotificationBus,
} from './sessions/bus.js';
export {
  GatewayFullError,
  ListenError,
  ProxyError,
  SessionGoneError,
  SessionStoreConfigError,
  UnauthenticatedBindError,
} from './errors.js';
export { connectRedisBackend, type RedisBackend, type RedisBackendOptions } from './redis/backend.js';
export {
  parseSessionStoreUrl,
  SESSION_STORE_ENV,
  REDIS_PASSWORD_ENV,
  REDIS_PASSWORD_FILE_ENV,
  type RedisConnectionOptions,
} from './redis/store-url.js';
export { serveStdio, STDIO_SESSION_ID } from './transports/stdio.js';
export { type CatalogSummary, formatSummary, summarizeGateway } from './status/summary.js';
export { GATEWAY_CAPABILITIES } from './proxy/proxy.js';
export type { UpstreamProxy } from './ports.js';
export { LIST_CHANGED_COALESCE_MS } from './proxy/notifications.js';
export { LIST_PAGE_SIZE } from './proxy/cursor.js';
export { CLIENT_ANSWER_TIMEOUT_MS } from './proxy/server-requests.js';
export {
  CALL_TOOL_NAME,
  GATEWAY_DEFERRED_TOKEN_BUDGET,
  announceDeferred,
  type AnnounceBudget,
} from './tools/definitions.js';
export { parseGatewayMode, deferredNames, type GatewayMode } from './tools/deferral.js';
export {
  cacheScopeFor,
  DEFAULT_LIST_TTL,
  type AnswerDependence,
  type CacheHint,
  type CacheScope,
  type ListTtlOptions,
} from './tools/cache-hints.js';
export {
  countStates,
  HEALTH_PATH,
  READY_PATH,
  STATUS_JSON_PATH,
  STATUS_PATH,
  STATUS_SEARCH_PATH,
  statusReporter,
  statusRoutes,
  type StatusSearchAnswer,
  statusSearcher,
  type StatusSearchHit,
  type StatusSnapshot,
  type StatusSource,
} from './status/routes.js';
export { hasFaultyServer, isServerReady, readiness, type Readiness } from './status/readiness.js';
export { DEFAULT_PENDING_WAIT_MS } from './tools/pending-wait.js';
export {
  OperationsEvents,
  type OperationsEvent,
  type OperationsListener,
  type CallOutcome,
  type RequestEvent,
  type ToolCallEvent,
  type SearchEvent,
  type SearchFollowedEvent,
  type SessionEvent,
  type SignInEvent,
  type ReloadEvent,
} from './status/events.js';
export { Operations, FOLLOW_WINDOW_MS, type OperationsOptions } from './status/operations.js';
export { GatewayMetrics, METRICS_PATH, DEFAULT_TOOL_LABELS, type MetricsSource } from './status/metrics.js';
export { startMetricsListener, type MetricsListener } from './status/metrics-listener.js';
export { AuditLog, AUDIT_STDERR, redactSecrets, type AuditOptions } from './status/audit.js';
export { loadTracer, type GatewayTracer, type TraceCarrier, type TraceSpan } from './status/tracing.js';
export { Profiles, PROFILE_PATH_PREFIX, type Profile, type ProfileChanges } from './profiles/profiles.js';
export { parseProfiles, type ProfileConfig } from './profiles/config.js';
export { profileCatalog, type CatalogView } from './profiles/catalog-view.js';
export { profileEndpoints, type ProfileEndpoints } from './profiles/http.js';
export { GatewayActivity, type RecentSearch, type ServerCalls } from './status/activity.js';
export {
  defaultLearnedPath,
  LearnedFileStore,
  type LearnedPersistence,
  type LearnedToolSummary,
  Learner,
  type LearnerOptions,
} from '../usage/index.js';

/** G1/G2 — MCP hub: config, connections, catalog feeding. */
export {
  ALIAS_SCHEME,
  aliasUri,
  type ExposedList,
  type FeatureCounts,
  type FeatureKind,
  fetchServerFeatures,
  McpAggregate,
  qualifyPromptName,
  type Route,
  type ServerFeatures,
} from './aggregate.js';
export {
  ConfigReloader,
  type ConfigReloaderOptions,
  type ConfigStatus,
  describeChanges,
  type ReloadEvent,
  type ReloadPart,
  type ReloadTrigger,
} from './config-reloader.js';
export {
  type HttpServerConfig,
  type HubConfig,
  isStdioServer,
  parseHubConfig,
  readHubConfig,
  type ServerConfig,
  type StdioServerConfig,
  type ToolSearchConfig,
} from './config.js';
export type {
  ConnectionFactory,
  ForwardOptions,
  McpConnection,
  McpConnectionEvents,
  McpMessage,
  UpstreamCallResult,
  UpstreamCapabilities,
  UpstreamProgress,
  UpstreamPrompt,
  UpstreamResource,
  UpstreamResourceTemplate,
  UpstreamTool,
} from './connection.js';
export {
  defaultHubConfig,
  type DefaultServersOptions,
  REFERENCE_SERVER_PACKAGES,
  type ReferenceServer,
  referenceServerConfig,
  resolvePackageBin,
} from './defaults.js';
export { McpConfigError, UpstreamError } from './errors.js';
export {
  type HubOptions,
  McpHub,
  type ReconnectOptions,
  type ServerRequestHandler,
  type ServerState,
  type ServerStatus,
} from './hub.js';
export { loadCatalogFromConfig, type LoadCatalogOptions, type LoadedCatalog } from './load.js';
export {
  createStderrLogger,
  isLogLevel,
  LOG_LEVELS,
  type Logger,
  type LogLevel,
  sanitizeLogText,
  silentLogger,
} from '../util/log.js';
export { diffServers, type ServerChanges } from './reload-plan.js';
export { sdkConnectionFactory, HUB_CLIENT_INFO } from './sdk-connection.js';
export {
  BackoffState,
  DEFAULT_RECONNECT,
  describeFailure,
  type FailureEvidence,
  type RetryDecision,
} from './server-state.js';
export { globToRegExp, type ToolOverride, ToolRules, type ToolRulesConfig, type Visibility } from './tool-rules.js';
export { type Environment, type ExpandedSecret, expandString, redactSecrets, VariableError } from './variables.js';

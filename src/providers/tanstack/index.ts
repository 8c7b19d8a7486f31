export {
  LazyToolDiscovery,
  DISCOVERY_TOOL_NAME,
  DISCOVERY_INPUT_SCHEMA,
  discoveredFromHistory,
  discoveryToolDescription,
  undiscoveredLazyToolError,
} from './lazy-discovery.js';
export type {
  LazyTool,
  DiscoveredTool,
  DiscoveryResult,
  DiscoveryMessage,
  IncludeDescription,
  LazyDiscoveryOptions,
} from './lazy-discovery.js';
export { lazyToolsFromPool, type PoolLazyTool, type LazyPoolOptions } from './pool.js';
export { isInfrastructureCall, mcpExecutor, type ToolExecutor } from '../shared/calls.js';

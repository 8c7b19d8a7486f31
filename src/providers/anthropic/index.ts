export { AnthropicToolSearch, stripToolSearchTools, withAnnouncement } from './tool-search.js';
export type {
  AnthropicToolSearchOptions,
  PreparedAnthropicRequest,
  AnthropicToolRun,
  ToolUseLike,
} from './tool-search.js';
export {
  normalizeAnthropicMessages,
  loadedByResponse,
  referencedTools,
  TOOL_LOADED_TEXT,
  type NormalizeOptions,
} from './normalize.js';
export { detectAnthropicPlatform, toolSearchHeaders, TOOL_SEARCH_BETAS, type AnthropicPlatform } from './platform.js';
export { toAnthropicTool, serverSearchTool, type ServerSearchKind } from './wire.js';
export { anthropicTokenCounter, type AnthropicCountingClient } from './tokens.js';
export {
  runAnthropicAgent,
  DEFAULT_MAX_ITERATIONS,
  type RunAnthropicOptions,
  type AnthropicRunResult,
  type AnthropicMessagesClient,
} from './loop.js';
export {
  ANTHROPIC_SERVER_SEARCH_NAMES,
  type CallOutcome,
  clientSearchText,
  DEFAULT_ADAPTER_FALLBACK,
  DISCOVERY_TOOL_NAME,
  isInfrastructureCall,
  mcpExecutor,
  type McpToolCaller,
  parseSearchInput,
  type PlanRequest,
  RequestPlanner,
  resultText,
  runTool,
  type Searcher,
  type SearchPool,
  type SearchResultFormatter,
  type StepEvent,
  type ToolExecutor,
  type ToolOutcome,
  type ToolSearchOptions,
  type ToolSearchResult,
  undiscoveredNames,
  undiscoveredToolMessage,
} from '../shared/index.js';

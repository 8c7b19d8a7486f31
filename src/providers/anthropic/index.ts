export { AnthropicToolSearch, stripToolSearchTools, withAnnouncement } from './tool-search.js';
export type {
  AnthropicClientLike,
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
export { TOOL_CHANGES_BETA, isToolChangesRefusal, type ToolChangeBlock } from './tool-changes.js';
export {
  runAnthropicAgent,
  DEFAULT_MAX_ITERATIONS,
  type RunAnthropicOptions,
  type AnthropicRunResult,
  type AnthropicMessagesClient,
} from './loop.js';
export * from '../shared/index.js';

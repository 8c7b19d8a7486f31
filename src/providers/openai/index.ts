export { OpenAIResponsesToolSearch, stripResponsesToolSearch } from './responses.js';
export type { OpenAIToolSearchOptions, PreparedResponsesRequest, ResponsesCallRun } from './responses.js';
export { OpenAIChatToolSearch } from './chat.js';
export type { ChatToolSearchOptions, PreparedChatRequest, ChatCallRun } from './chat.js';
export { readResponsesHistory, readChatHistory } from './history.js';
export {
  toResponsesTools,
  toResponsesFunction,
  toChatFunction,
  toolSearchTool,
  withoutDialect,
  namespaceName,
} from './wire.js';
export { runResponsesAgent, runChatAgent, DEFAULT_MAX_ITERATIONS } from './loop.js';
export type {
  RunResponsesOptions,
  RunChatOptions,
  ResponsesRunResult,
  ChatRunResult,
  OpenAIResponsesClient,
  OpenAIChatClient,
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

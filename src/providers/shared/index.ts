export {
  clientSearchText,
  parseSearchInput,
  type Searcher,
  type SearchPool,
  type SearchResultFormatter,
  type ToolSearchResult,
} from './search.js';
export {
  ANTHROPIC_SERVER_SEARCH_NAMES,
  DISCOVERY_TOOL_NAME,
  isInfrastructureCall,
  mcpExecutor,
  type McpToolCaller,
  resultText,
  runTool,
  type StepEvent,
  type ToolExecutor,
  type ToolOutcome,
  undiscoveredToolMessage,
} from './calls.js';
export {
  type CallOutcome,
  DEFAULT_ADAPTER_FALLBACK,
  type PlanRequest,
  RequestPlanner,
  type ToolSearchOptions,
  undiscoveredNames,
} from './session.js';
export { codeModeTool, type CodeModeOptions, withCodeMode } from './code-mode.js';

/**
 * toolsearch — deferred tool loading for LLM agents. The core is pure: plain data in, plain data
 * out. Subpath exports carry the edges (providers, MCP, gateway).
 */
export {
  DuplicateToolError,
  InvalidModeError,
  InvalidToolError,
  ToolsearchError,
  UnknownToolError,
} from './core/errors.js';
export {
  ALWAYS_LOAD_META_KEY,
  defineTool,
  describeOrigin,
  isMcpTool,
  type JsonSchema,
  normalizeInputSchema,
  type ServerInfo,
  serverOf,
  toolDefinitionJson,
  type ToolDefinitionLike,
  type ToolHandler,
  type ToolInput,
  type ToolOrigin,
  type ToolSpec,
} from './core/tool.js';
export {
  ambiguousQualifiedName,
  isProviderSafeName,
  MCP_PREFIX,
  NameMap,
  parseMcpName,
  PROVIDER_NAME_MAX,
  PROVIDER_NAME_PATTERN,
  qualifyMcpName,
  shortHash,
  toProviderSafeName,
} from './core/names.js';
export {
  admitTool,
  Catalog,
  type CatalogDelta,
  type FailedServer,
  modelFacingName,
  type PoolView,
} from './core/catalog.js';
export {
  DEFAULT_MAX_RESULTS,
  SEARCH_ADVICE,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_NAME,
  type SearchToolInput,
  searchToolSpec,
  THIRD_PARTY_NOTE,
} from './core/search-tool.js';
export {
  nameAsPattern,
  nameAsWords,
  searchInstructions,
  type SearchInstructions,
  type SearchToolMode,
  SERVER_SEARCH_TOOL_NAMES,
} from './core/search-instructions.js';
export { type DeferralContext, deferredNames, isDeferred } from './core/policy.js';
export {
  DEFAULT_AUTO_PERCENT,
  KILL_SWITCH_ENVS,
  MODE_ENV,
  type ModeSources,
  parseModeValue,
  type ResolvedMode,
  resolveMode,
  type ToolSearchMode,
} from './core/mode.js';
export {
  CHARS_PER_TOKEN,
  DEFAULT_CONTEXT_WINDOW,
  DeferredTokenMemo,
  estimateToolTokens,
  poolKey,
  thresholdTokens,
  type TokenCounter,
  type TokenMeasure,
  TOOLS_PREAMBLE_TOKENS,
  withoutPreamble,
} from './core/threshold.js';
export {
  DEFAULT_MODEL_SUPPORT_RULES,
  DEFAULT_UNSUPPORTED_MODEL_PATTERNS,
  defaultModelSupport,
  gptVersion,
  ModelSupport,
  type ModelSupportDecision,
  type ModelSupportOptions,
  type ModelSupportRule,
  type NativeCapability,
} from './core/model-support.js';
export {
  definitiveGate,
  type DefinitiveGateInput,
  FIRST_PARTY_HOSTS,
  type GateDecision,
  isFirstPartyBaseUrl,
  optimisticGate,
  type OptimisticGateInput,
} from './core/gates.js';
export {
  ANNOUNCE_TAG,
  DELTA_ADDED_HEADER,
  DELTA_REMOVED_HEADER,
  DELTA_TAG,
  LOADED_TAG,
  readTagBlocks,
  SNAPSHOT_TAG,
  type TagBlock,
  wrapTag,
} from './core/markers.js';
export {
  type AnnouncementForm,
  eventsFromText,
  extractDiscovered,
  GROUP_LINE,
  type HistoryEvent,
} from './core/history.js';
export { type AnthropicMessageLike, readAnthropicHistory } from './core/anthropic-history.js';
export { compactionBoundary, compactionBoundaryText, snapshotForCompaction } from './core/compaction.js';
export {
  announcedState,
  type Announcement,
  type AnnounceOptions,
  chooseForm,
  DEFAULT_ANNOUNCE_TOKEN_BUDGET,
  deferredDelta,
  estimateTextTokens,
  fullAnnouncement,
  groupKeyOf,
  LOCAL_GROUP,
} from './core/announce.js';
export {
  announcementBudget,
  boundedJsonTextTokens,
  boundedTextTokens,
  DEFAULT_DEFERRED_TOKEN_BUDGET,
  type GroupRanking,
  rankGroups,
  type ServerGroup,
  type ServerPriority,
} from './core/announce-budget.js';
export { type Expansion, filterTools, plan, type Plan, type PlanInput } from './core/plan.js';
// The search room's index is itself a named list (pinned by test/repo/exports.test.ts).
export * from './search/index.js';
// G11: code mode's sandbox (the gateway's `run_code` and the providers' `withCodeMode` use it).
export {
  CodeSandbox,
  type CodeSandboxOptions,
  DEFAULT_SANDBOX_LIMITS,
  describeFailure,
  RUN_CODE_TOOL_NAME,
  type RunFailure,
  type RunOutcome,
  type SandboxCalls,
  type SandboxLimits,
  SandboxLimitsError,
} from './sandbox/index.js';
export { schemaType, toolSignature } from './core/tool-signature.js';
export { type CodeModeHit, codeModeHit } from './core/code-mode-hit.js';

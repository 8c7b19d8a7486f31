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
export * from '../shared/index.js';

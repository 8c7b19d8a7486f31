/**
 * F4 — client-side expansion for Chat Completions and any OpenAI-compatible endpoint (local
 * models, proxies). The search tool is an ordinary function; its result text carries the
 * `<tools-loaded>` marker, so the discovered set is re-derived from the messages (D1) and the
 * discovered tools' schemas join the next request's `tools`.
 *
 * The announcement is a system message inserted after the caller's leading system/developer
 * messages, at the same place every request, so the prefix stays cacheable.
 */
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { Plan } from '../../core/plan.js';
import { isInfrastructureCall } from '../shared/calls.js';
import { clientSearchText } from '../shared/search.js';
import { RequestPlanner, type ToolSearchOptions } from '../shared/session.js';
import { readChatHistory } from './history.js';
import { toChatFunction } from './wire.js';

export type ChatToolSearchOptions = ToolSearchOptions;

export interface PreparedChatRequest {
  readonly params: ChatCompletionCreateParamsNonStreaming;
  readonly plan: Plan;
}

export interface ChatCallRun {
  readonly message: ChatCompletionToolMessageParam;
  readonly infrastructure: boolean;
  readonly isError: boolean;
  readonly output: string;
}

function insertAnnouncement(
  messages: readonly ChatCompletionMessageParam[],
  text: string | undefined,
): ChatCompletionMessageParam[] {
  if (!text) return [...messages];
  let at = 0;
  while (at < messages.length && (messages[at]!.role === 'system' || messages[at]!.role === 'developer')) at++;
  return [...messages.slice(0, at), { role: 'system', content: text }, ...messages.slice(at)];
}

export class OpenAIChatToolSearch {
  readonly planner: RequestPlanner;

  constructor(readonly options: ChatToolSearchOptions) {
    this.planner = new RequestPlanner(options);
  }

  async prepare(params: ChatCompletionCreateParamsNonStreaming): Promise<PreparedChatRequest> {
    const current = await this.planner.plan({
      model: params.model,
      history: readChatHistory(params.messages),
      expansion: 'client',
    });
    const tools: ChatCompletionTool[] = [...(params.tools ?? []), ...current.visibleTools.map(toChatFunction)];
    const messages = insertAnnouncement(params.messages, current.announcement?.text);
    const { tools: _t, messages: _m, ...rest } = params;
    return { plan: current, params: { ...rest, messages, ...(tools.length > 0 && { tools }) } };
  }

  async runToolCall(call: ChatCompletionMessageFunctionToolCall, current: Plan): Promise<ChatCallRun> {
    const name = call.function.name;
    const answer = (content: string): ChatCompletionToolMessageParam => ({
      role: 'tool',
      tool_call_id: call.id,
      content,
    });
    if (current.useToolSearch && name === current.searchTool?.name) {
      const result = this.planner.search(current, call.function.arguments);
      const { text, load } = this.planner.answerSearch(current, result);
      return {
        message: answer(clientSearchText(text, load)),
        infrastructure: true,
        isError: false,
        output: text,
      };
    }
    const outcome = await this.planner.runCall(current, name, call.function.arguments);
    const text = outcome.loadNow ? clientSearchText(outcome.text, [name]) : outcome.text;
    return {
      message: answer(text),
      infrastructure: isInfrastructureCall(name),
      isError: outcome.isError,
      output: outcome.text,
    };
  }
}

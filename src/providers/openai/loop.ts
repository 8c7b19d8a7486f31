/**
 * Minimal agent loops for the Responses and Chat Completions APIs: prepare → create → answer
 * every call → repeat, up to `maxIterations`. The history kept is the raw one.
 */
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { StepEvent } from '../shared/calls.js';
import type { OpenAIChatToolSearch } from './chat.js';
import type { OpenAIResponsesToolSearch } from './responses.js';

export const DEFAULT_MAX_ITERATIONS = 10;

/** The parts of an OpenAI client the loops use (`new OpenAI()` fits). */
export interface OpenAIResponsesClient {
  readonly responses: { create(params: ResponseCreateParamsNonStreaming): PromiseLike<Response> };
}
export interface OpenAIChatClient {
  readonly chat: {
    completions: { create(params: ChatCompletionCreateParamsNonStreaming): PromiseLike<ChatCompletion> };
  };
}

interface LoopOptions {
  readonly maxIterations?: number;
  readonly onStep?: (event: StepEvent) => void;
}

export interface RunResponsesOptions extends LoopOptions {
  readonly client: OpenAIResponsesClient;
  readonly toolSearch: OpenAIResponsesToolSearch;
  readonly params: ResponseCreateParamsNonStreaming;
}

export interface ResponsesRunResult {
  readonly input: ResponseInputItem[];
  readonly response: Response;
  readonly steps: StepEvent[];
}

function record(steps: StepEvent[], options: LoopOptions, event: StepEvent): void {
  steps.push(event);
  options.onStep?.(event);
}

export async function runResponsesAgent(options: RunResponsesOptions): Promise<ResponsesRunResult> {
  const p = options.params;
  const input: ResponseInputItem[] =
    typeof p.input === 'string' ? [{ role: 'user', content: p.input }] : [...(p.input ?? [])];
  const steps: StepEvent[] = [];
  let response: Response | undefined;
  for (let iteration = 1; iteration <= (options.maxIterations ?? DEFAULT_MAX_ITERATIONS); iteration++) {
    const prepared = await options.toolSearch.prepare({ ...p, input });
    response = await options.client.responses.create(prepared.params);
    input.push(...(response.output as ResponseInputItem[]));
    let answered = 0;
    for (const item of response.output) {
      if (item.type !== 'function_call' && !(item.type === 'tool_search_call' && item.execution === 'client')) continue;
      const run = await options.toolSearch.runCall(item, prepared.plan);
      input.push(...run.items);
      answered++;
      const name = item.type === 'function_call' ? item.name : 'tool_search';
      record(steps, options, {
        iteration,
        id: item.call_id ?? item.id ?? '',
        name,
        input: item.arguments,
        output: run.output,
        isError: run.isError,
        infrastructure: run.infrastructure,
      });
    }
    if (answered === 0) break;
  }
  return { input, response: response!, steps };
}

export interface RunChatOptions extends LoopOptions {
  readonly client: OpenAIChatClient;
  readonly toolSearch: OpenAIChatToolSearch;
  readonly params: ChatCompletionCreateParamsNonStreaming;
}

export interface ChatRunResult {
  readonly messages: ChatCompletionMessageParam[];
  readonly completion: ChatCompletion;
  readonly steps: StepEvent[];
}

export async function runChatAgent(options: RunChatOptions): Promise<ChatRunResult> {
  const messages: ChatCompletionMessageParam[] = [...options.params.messages];
  const steps: StepEvent[] = [];
  let completion: ChatCompletion | undefined;
  for (let iteration = 1; iteration <= (options.maxIterations ?? DEFAULT_MAX_ITERATIONS); iteration++) {
    const prepared = await options.toolSearch.prepare({ ...options.params, messages });
    completion = await options.client.chat.completions.create(prepared.params);
    const reply = completion.choices[0]?.message;
    if (!reply) break;
    messages.push({
      role: 'assistant',
      content: reply.content,
      ...(reply.tool_calls?.length && { tool_calls: reply.tool_calls }),
    });
    const calls = (reply.tool_calls ?? []).filter((c) => c.type === 'function');
    if (calls.length === 0) break;
    for (const call of calls) {
      const run = await options.toolSearch.runToolCall(call, prepared.plan);
      messages.push(run.message);
      record(steps, options, {
        iteration,
        id: call.id,
        name: call.function.name,
        input: call.function.arguments,
        output: run.output,
        isError: run.isError,
        infrastructure: run.infrastructure,
      });
    }
  }
  return { messages, completion: completion!, steps };
}

/**
 * A minimal Anthropic agent loop: prepare → create → answer every tool_use → repeat. The
 * history it keeps is the raw one (what the API returned); normalization happens per request.
 */
import type {
  ContentBlock,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { ANTHROPIC_SERVER_SEARCH_NAMES, type StepEvent } from '../shared/calls.js';
import type { AnthropicToolSearch, PreparedAnthropicRequest } from './tool-search.js';

export const DEFAULT_MAX_ITERATIONS = 10;

/** The part of an Anthropic client the loop uses (`new Anthropic()`, `AnthropicBedrock`, `AnthropicVertex` fit). */
export interface AnthropicMessagesClient {
  /** Where it sends requests (the SDK honours `ANTHROPIC_BASE_URL`): B5 decides the platform from it. */
  readonly baseURL?: string | undefined;
  readonly messages: {
    create(
      params: MessageCreateParamsNonStreaming,
      options?: { headers?: Record<string, string> },
    ): PromiseLike<Message>;
  };
}

export interface RunAnthropicOptions {
  readonly client: AnthropicMessagesClient;
  readonly toolSearch: AnthropicToolSearch;
  readonly params: MessageCreateParamsNonStreaming;
  readonly maxIterations?: number;
  /** Called for every tool call; `infrastructure` marks search calls a UI may hide (F8). */
  readonly onStep?: (event: StepEvent) => void;
}

export interface AnthropicRunResult {
  readonly messages: MessageParam[];
  readonly response: Message;
  readonly steps: StepEvent[];
  readonly iterations: number;
}

const SERVER_SEARCH = new Set<string>(ANTHROPIC_SERVER_SEARCH_NAMES);

/** What a server-side search returned, as the step's output: the tools found, or the error. */
function serverSearchOutput(content: readonly ContentBlock[], id: string): { output: string; isError: boolean } {
  const result = content.find((b) => b.type === 'tool_search_tool_result' && b.tool_use_id === id);
  if (result?.type !== 'tool_search_tool_result') return { output: '', isError: false };
  if (result.content.type === 'tool_search_tool_result_error') {
    return {
      output: `${result.content.error_code}${result.content.error_message ? `: ${result.content.error_message}` : ''}`,
      isError: true,
    };
  }
  const names = result.content.tool_references.map((r) => r.tool_name);
  return { output: names.length ? `Loaded: ${names.join(', ')}` : 'No tools found.', isError: false };
}

/** F8: Anthropic ran these searches itself; report them like ours, as infrastructure steps. */
function serverSearchSteps(content: readonly ContentBlock[], iteration: number): StepEvent[] {
  return content.flatMap((b) =>
    b.type === 'server_tool_use' && SERVER_SEARCH.has(b.name)
      ? [
          {
            iteration,
            id: b.id,
            name: b.name,
            input: b.input,
            ...serverSearchOutput(content, b.id),
            infrastructure: true,
          },
        ]
      : [],
  );
}

/**
 * One request. F9: an endpoint that refuses tool changes with a 400 (the beta, the system message)
 * gets the same request again the other way, once (`refuseToolChanges` says it in one line).
 */
async function createMessage(
  options: RunAnthropicOptions,
  messages: MessageParam[],
): Promise<{ prepared: PreparedAnthropicRequest; message: Message }> {
  const params = { ...options.params, messages };
  const send = (prepared: PreparedAnthropicRequest) =>
    options.client.messages.create(prepared.params, ...(prepared.headers ? [{ headers: prepared.headers }] : []));
  const prepared = await options.toolSearch.prepare(params, { client: options.client });
  try {
    return { prepared, message: await send(prepared) };
  } catch (error) {
    const refused =
      prepared.loading === 'tool-changes' && options.toolSearch.refuseToolChanges(error, params.model, options.client);
    if (!refused) throw error;
    const again = await options.toolSearch.prepare(params, { client: options.client });
    return { prepared: again, message: await send(again) };
  }
}

export async function runAnthropicAgent(options: RunAnthropicOptions): Promise<AnthropicRunResult> {
  const max = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  const messages: MessageParam[] = [...options.params.messages];
  const steps: StepEvent[] = [];
  let response: Message | undefined;
  let iteration = 0;
  while (iteration < max) {
    iteration++;
    const { prepared, message } = await createMessage(options, messages);
    response = message;
    messages.push({ role: 'assistant', content: response.content });
    for (const event of serverSearchSteps(response.content, iteration)) {
      steps.push(event);
      options.onStep?.(event);
    }
    const uses = response.content.filter((b) => b.type === 'tool_use');
    if (uses.length === 0) {
      // A paused server-side turn (e.g. a long tool search) resumes by sending the assistant
      // content back as is, which the next iteration does.
      if (response.stop_reason === 'pause_turn') continue;
      break;
    }
    const results: ToolResultBlockParam[] = [];
    for (const use of uses) {
      // The response itself may have loaded the tool (server-side search then call, one response).
      const run = await options.toolSearch.runToolUse(use, prepared.plan, response.content);
      results.push(run.result);
      const event: StepEvent = {
        iteration,
        id: use.id,
        name: use.name,
        input: use.input,
        output: run.output,
        isError: run.result.is_error === true,
        infrastructure: run.infrastructure,
      };
      steps.push(event);
      options.onStep?.(event);
    }
    messages.push({ role: 'user', content: results });
  }
  return { messages, response: response!, steps, iterations: iteration };
}

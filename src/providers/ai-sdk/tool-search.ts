/**
 * F7 — Vercel AI SDK 6 integration. Every pool tool is registered once as a `dynamicTool`
 * (`jsonSchema` input: MCP schemas are only known at run time); `prepareStep` narrows what the
 * model sees to `activeTools` = plan.visibleTools, re-derived before every step from the
 * messages (the search tool's output carries the `<tools-loaded>` marker, D1). Discovered tools
 * become active on the next step, never in the middle of one (C4).
 *
 * The announcement is a system message placed after the step's leading system messages
 * (prepareStep's `messages`), so the caller's own `system` stays untouched.
 */
import { dynamicTool, jsonSchema, type ModelMessage, type PrepareStepResult, type ToolSet } from 'ai';
import { eventsFromText, type HistoryEvent } from '../../core/history.js';
import type { Plan } from '../../core/plan.js';
import { callToolSpec, searchToolSpec } from '../../core/search-tool.js';
import type { ToolSpec } from '../../core/tool.js';
import { clientSearchText } from '../shared/search.js';
import { RequestPlanner, undiscoveredNames, type ToolSearchOptions } from '../shared/session.js';

/** The SDK's `LanguageModelV3ToolCall` as far as a repair needs it. */
export interface ToolCallLike {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
}

export type AISdkToolSearchOptions = ToolSearchOptions;

/** The tool-result output shapes of AI SDK 6 model messages that carry text. */
function outputText(output: unknown): string {
  if (typeof output !== 'object' || output === null) return typeof output === 'string' ? output : '';
  const o = output as { type?: unknown; value?: unknown };
  if (typeof o.value === 'string') return o.value;
  if (o.value !== undefined) return JSON.stringify(o.value);
  return '';
}

/** D1 for AI SDK model messages: markers in tool outputs and in text. */
export function readModelMessages(messages: readonly ModelMessage[]): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      events.push(...eventsFromText(message.content));
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'tool-result') events.push(...eventsFromText(outputText(part.output)));
      else if (part.type === 'text') events.push(...eventsFromText(part.text));
    }
  }
  return events;
}

function modelIdOf(model: unknown): string | undefined {
  if (typeof model === 'string') return model;
  const id = (model as { modelId?: unknown } | undefined)?.modelId;
  return typeof id === 'string' ? id : undefined;
}

function withAnnouncement(messages: readonly ModelMessage[], text: string | undefined): ModelMessage[] | undefined {
  if (!text) return undefined;
  let at = 0;
  while (at < messages.length && messages[at]!.role === 'system') at++;
  return [...messages.slice(0, at), { role: 'system', content: text }, ...messages.slice(at)];
}

export class AISdkToolSearch {
  readonly planner: RequestPlanner;

  constructor(readonly options: AISdkToolSearchOptions) {
    this.planner = new RequestPlanner(options);
  }

  planFor(messages: readonly ModelMessage[], model?: string): Promise<Plan> {
    return this.planner.plan({
      history: readModelMessages(messages),
      expansion: 'client',
      ...(model !== undefined && { model }),
    });
  }

  /** Every pool tool plus the search tool, for `generateText({ tools })`. Rebuild when the pool changes. */
  get tools(): ToolSet {
    const set: ToolSet = {};
    for (const tool of this.options.pool.tools) set[tool.name] = this.wrap(tool);
    const search = searchToolSpec();
    set[search.name] = dynamicTool({
      description: search.description,
      inputSchema: jsonSchema(search.inputSchema),
      execute: async (input, { messages }) => {
        const current = await this.planFor(messages);
        const { text, load } = this.planner.answerSearch(current, this.planner.search(current, input));
        return clientSearchText(text, load);
      },
    });
    // E5: a fixed list runs found tools through call_tool.
    if (this.options.toolList === 'fixed') {
      const call = callToolSpec();
      set[call.name] = dynamicTool({
        description: call.description,
        inputSchema: jsonSchema(call.inputSchema),
        execute: async (input, { messages }) => {
          const outcome = await this.planner.runCall(await this.planFor(messages), call.name, input);
          if (outcome.isError) throw new Error(outcome.text);
          return outcome.text;
        },
      });
    }
    return set;
  }

  /** For `generateText({ prepareStep })`: the step's `activeTools` and the announcement. */
  readonly prepareStep = async (step: {
    messages: ModelMessage[];
    model?: unknown;
  }): Promise<PrepareStepResult<ToolSet>> => {
    const current = await this.planFor(step.messages, modelIdOf(step.model));
    const messages = withAnnouncement(step.messages, current.announcement?.text);
    return { activeTools: current.visibleTools.map((t) => t.name), ...(messages && { messages }) };
  };

  /**
   * F3 for `generateText({ experimental_repairToolCall })`. The SDK itself rejects a call outside
   * `activeTools` ("unavailable tool"); for a deferred tool the model never loaded, this turns
   * the call into the exact `select:<name>` search, so the tool is loaded and callable next step.
   */
  readonly repairToolCall = async (failed: {
    toolCall: ToolCallLike;
    messages: ModelMessage[];
  }): Promise<ToolCallLike | null> => {
    const { toolCall } = failed;
    const current = await this.planFor(failed.messages);
    if (!current.useToolSearch || !current.searchTool || !undiscoveredNames(current).has(toolCall.toolName))
      return null;
    return {
      ...toolCall,
      toolName: current.searchTool.name,
      input: JSON.stringify({ query: `select:${toolCall.toolName}` }),
    };
  };

  private wrap(tool: ToolSpec) {
    return dynamicTool({
      description: tool.description,
      inputSchema: jsonSchema(tool.inputSchema),
      execute: async (input, { messages }) => {
        // F3 and errors: a throw becomes a tool-error part the model reads.
        const outcome = await this.planner.runCall(await this.planFor(messages), tool.name, input);
        if (outcome.isError) throw new Error(outcome.text);
        return outcome.loadNow ? clientSearchText(outcome.text, [tool.name]) : outcome.text;
      },
    });
  }
}

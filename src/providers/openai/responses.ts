/**
 * F5 — OpenAI Responses native tool search. The request carries a client-executed `tool_search`
 * tool, deferred functions with `defer_loading: true` (MCP tools in one namespace per server),
 * and the model's `tool_search_call` is answered with a `tool_search_output` item whose `tools`
 * are the loaded definitions. Those output items are the discovery record (D1).
 *
 * The announcement is appended to `instructions`: stable while the deferred set is, and never
 * written into the caller's stored input.
 */
import type {
  ResponseCreateParamsNonStreaming,
  ResponseFunctionToolCall,
  ResponseInputItem,
  ResponseToolSearchCall,
  ResponseToolSearchOutputItemParam,
  Tool,
} from 'openai/resources/responses/responses';
import type { Plan } from '../../core/plan.js';
import { isInfrastructureCall } from '../shared/calls.js';
import { clientSearchText } from '../shared/search.js';
import { RequestPlanner, type ToolSearchOptions } from '../shared/session.js';
import { loadedByOutputs, readResponsesHistory } from './history.js';
import { toolSearchTool, toResponsesTools } from './wire.js';

export type OpenAIToolSearchOptions = ToolSearchOptions;

export interface PreparedResponsesRequest {
  readonly params: ResponseCreateParamsNonStreaming;
  readonly plan: Plan;
}

export interface ResponsesCallRun {
  /** Items to append to the input: the output item, plus a note when a search found nothing (C8). */
  readonly items: ResponseInputItem[];
  readonly infrastructure: boolean;
  readonly isError: boolean;
  readonly output: string;
}

function isDeferralItem(item: ResponseInputItem): boolean {
  return 'type' in item && (item.type === 'tool_search_call' || item.type === 'tool_search_output');
}

function isToolSearchTool(tool: Tool): boolean {
  return tool.type === 'tool_search';
}

/** B2: the caller's tools without tool_search and defer flags. */
export function stripResponsesToolSearch(tools: readonly Tool[]): Tool[] {
  return tools.flatMap((tool): Tool[] => {
    if (isToolSearchTool(tool)) return [];
    if (tool.type === 'namespace') return [{ ...tool, tools: tool.tools.map((f) => ({ ...f, defer_loading: false })) }];
    if ('defer_loading' in tool) {
      const { defer_loading: _flag, ...rest } = tool;
      return [rest as Tool];
    }
    return [tool];
  });
}

/** Drop loaded tools no longer in the pool from tool_search_output items (a removed MCP server). */
function withoutRemovedTools(item: ResponseInputItem, available: ReadonlySet<string>): ResponseInputItem {
  if (!('type' in item) || item.type !== 'tool_search_output') return item;
  const tools = item.tools.flatMap((t): Tool[] => {
    if (t.type === 'function') return available.has(t.name) ? [t] : [];
    if (t.type === 'namespace') {
      const inner = t.tools.filter((f) => available.has(f.name));
      return inner.length ? [{ ...t, tools: inner }] : [];
    }
    return [t];
  });
  return tools.length === item.tools.length ? item : { ...item, tools };
}

export class OpenAIResponsesToolSearch {
  readonly planner: RequestPlanner;

  constructor(readonly options: OpenAIToolSearchOptions) {
    this.planner = new RequestPlanner(options);
  }

  async prepare(params: ResponseCreateParamsNonStreaming): Promise<PreparedResponsesRequest> {
    const input: ResponseInputItem[] =
      typeof params.input === 'string' ? [{ role: 'user', content: params.input }] : [...(params.input ?? [])];
    // B4: only models OpenAI's guide names take `tool_search`; the rest expand client-side.
    const current = await this.planner.plan({
      model: params.model ?? '',
      history: readResponsesHistory(input, params.instructions),
      expansion: 'native',
      capability: 'openai-tool-search',
    });
    const native = current.useToolSearch && current.expansion === 'native';
    const available = new Set(this.options.pool.tools.map((t) => t.name));
    const outgoing = native
      ? input.map((item) => withoutRemovedTools(item, available))
      : input.filter((item) => !isDeferralItem(item));
    const tools = this.buildTools(current, params.tools ?? [], loadedByOutputs(outgoing));
    const announcement = current.announcement?.text;
    const instructions = announcement
      ? params.instructions
        ? `${params.instructions}\n\n${announcement}`
        : announcement
      : params.instructions;
    const { tools: _t, input: _i, instructions: _s, ...rest } = params;
    return {
      plan: current,
      params: { ...rest, input: outgoing, ...(instructions && { instructions }), ...(tools.length > 0 && { tools }) },
    };
  }

  private buildTools(current: Plan, callerTools: readonly Tool[], loaded: ReadonlySet<string>): Tool[] {
    if (!current.useToolSearch)
      return [...stripResponsesToolSearch(callerTools), ...toResponsesTools(current.visibleTools, new Set())];
    // Client expansion is the fallback for a model the guide excludes: the caller's own
    // `tool_search` / `defer_loading` must not reach it either.
    if (current.expansion === 'client')
      return [...stripResponsesToolSearch(callerTools), ...toResponsesTools(current.visibleTools, new Set())];
    // Discovered but with no tool_search_output left to load it (compaction): send it loaded (D2).
    const discovered = new Set(current.discovered);
    const deferred = new Set(current.deferred.filter((n) => !discovered.has(n) || loaded.has(n)));
    return [
      ...callerTools,
      toolSearchTool(current.searchTool!),
      ...toResponsesTools(this.options.pool.tools, deferred),
    ];
  }

  /** Answer a `tool_search_call` or `function_call` output item; other items get no answer. */
  async runCall(item: ResponseToolSearchCall | ResponseFunctionToolCall, current: Plan): Promise<ResponsesCallRun> {
    if (item.type === 'tool_search_call') return this.answerSearch(item, current);
    if (current.useToolSearch && current.expansion === 'client' && item.name === current.searchTool?.name)
      return this.answerClientSearch(item, current);
    const outcome = await this.planner.runCall(current, item.name, item.arguments);
    // Just in time: the marker loads the tool for the next request (client expansion of one tool).
    const text = outcome.loadNow ? clientSearchText(outcome.text, [item.name]) : outcome.text;
    return {
      items: [{ type: 'function_call_output', call_id: item.call_id, output: text }],
      infrastructure: isInfrastructureCall(item.name),
      isError: outcome.isError,
      output: outcome.text,
    };
  }

  /** F4 (a model without `tool_search`): the search is a function; its output carries the loaded marker. */
  answerClientSearch(call: Pick<ResponseFunctionToolCall, 'call_id' | 'arguments'>, current: Plan): ResponsesCallRun {
    const result = this.planner.search(current, call.arguments);
    const { text, load } = this.planner.answerSearch(current, result);
    return {
      items: [{ type: 'function_call_output', call_id: call.call_id, output: clientSearchText(text, load) }],
      infrastructure: true,
      isError: false,
      output: text,
    };
  }

  /** F5: tool_search_output with the loaded definitions; C8 text goes in a developer note. */
  answerSearch(call: Pick<ResponseToolSearchCall, 'call_id' | 'arguments'>, current: Plan): ResponsesCallRun {
    const result = this.planner.search(current, call.arguments);
    const specs = result.matches.flatMap((n) => this.planner.findTool(n) ?? []);
    const out: ResponseToolSearchOutputItemParam = {
      type: 'tool_search_output',
      execution: 'client',
      status: 'completed',
      call_id: call.call_id,
      tools: toResponsesTools(specs, new Set()),
    };
    const text = this.planner.format(result);
    const items: ResponseInputItem[] = [out];
    if (result.matches.length === 0 || result.notFound.length > 0)
      items.push({ type: 'message', role: 'developer', content: text });
    return { items, infrastructure: true, isError: false, output: text };
  }
}

/**
 * D1 for OpenAI: Responses input items (`tool_search_output` loads tools; text markers in
 * function outputs and messages) and Chat Completions messages (text markers only).
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { eventsFromText, type HistoryEvent } from '../../core/history.js';
import { functionNames } from './wire.js';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
}

export function readResponsesHistory(
  input: string | readonly ResponseInputItem[] | null | undefined,
  instructions?: string | null,
): HistoryEvent[] {
  const events: HistoryEvent[] = instructions ? eventsFromText(instructions) : [];
  if (typeof input === 'string' || !input) return [...events, ...eventsFromText(input ?? '')];
  for (const item of input) {
    if (!('type' in item) || item.type === 'message') {
      events.push(...eventsFromText(textOf((item as { content?: unknown }).content)));
    } else if (item.type === 'tool_search_output') {
      const names = functionNames(item.tools);
      if (names.length) events.push({ type: 'loaded', names });
    } else if (item.type === 'function_call_output') {
      events.push(...eventsFromText(textOf(item.output)));
    }
  }
  return events;
}

/** Which tools a Responses input loads natively (its tool_search_output items). */
export function loadedByOutputs(input: readonly ResponseInputItem[]): Set<string> {
  const names = new Set<string>();
  for (const item of input)
    if ('type' in item && item.type === 'tool_search_output') for (const n of functionNames(item.tools)) names.add(n);
  return names;
}

export function readChatHistory(messages: readonly ChatCompletionMessageParam[]): HistoryEvent[] {
  return messages.flatMap((m) => eventsFromText(textOf(m.content)));
}

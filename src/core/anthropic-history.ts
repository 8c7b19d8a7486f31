/**
 * D1 for the Anthropic Messages format, read as plain JSON (no SDK import): `tool_reference`
 * blocks inside `tool_result` content, server-side `tool_search_tool_result` blocks, F9's
 * `tool_addition` / `tool_removal` blocks (in `role: "system"` messages), and the text markers in
 * any text block or string content.
 */
import { eventsFromText, type HistoryEvent } from './history.js';

/** The subset of an Anthropic message this reader looks at. */
export interface AnthropicMessageLike {
  readonly role: string;
  readonly content: string | readonly unknown[];
}

type Block = { type?: unknown; [key: string]: unknown };

function asBlock(value: unknown): Block | undefined {
  return typeof value === 'object' && value !== null ? (value as Block) : undefined;
}

function referencesIn(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const names: string[] = [];
  for (const item of content) {
    const block = asBlock(item);
    if (block?.type === 'tool_reference' && typeof block.tool_name === 'string') names.push(block.tool_name);
  }
  return names;
}

/** The tool a `tool_addition` / `tool_removal` names: `{type: 'tool_reference', name}` or, by value, `{type: 'tool_definition', definition: {name}}`. */
export function toolChangeName(tool: unknown): string | undefined {
  const ref = asBlock(tool);
  if (ref?.type === 'tool_reference') return typeof ref.name === 'string' ? ref.name : undefined;
  const name = ref?.type === 'tool_definition' ? asBlock(ref.definition)?.name : undefined;
  return typeof name === 'string' ? name : undefined;
}

function eventsFromBlock(block: Block): HistoryEvent[] {
  switch (block.type) {
    case 'tool_addition':
    case 'tool_removal': {
      const name = toolChangeName(block.tool);
      if (name === undefined) return [];
      return [{ type: block.type === 'tool_addition' ? 'loaded' : 'unloaded', names: [name] }];
    }
    case 'text':
      return typeof block.text === 'string' ? eventsFromText(block.text) : [];
    case 'tool_result': {
      const content = block.content;
      if (typeof content === 'string') return eventsFromText(content);
      const events: HistoryEvent[] = [];
      const refs = referencesIn(content);
      if (refs.length) events.push({ type: 'loaded', names: refs });
      if (Array.isArray(content))
        for (const inner of content) {
          const b = asBlock(inner);
          if (b?.type === 'text' && typeof b.text === 'string') events.push(...eventsFromText(b.text));
        }
      return events;
    }
    case 'tool_search_tool_result': {
      const result = asBlock(block.content);
      const refs = result?.type === 'tool_search_tool_search_result' ? referencesIn(result.tool_references) : [];
      return refs.length ? [{ type: 'loaded', names: refs }] : [];
    }
    default:
      return [];
  }
}

/** Read an Anthropic conversation (and optionally its system prompt) into history events. */
export function readAnthropicHistory(
  messages: readonly AnthropicMessageLike[],
  system?: string | readonly unknown[],
): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  if (typeof system === 'string') events.push(...eventsFromText(system));
  else if (Array.isArray(system))
    for (const b of system) {
      const block = asBlock(b);
      if (block) events.push(...eventsFromBlock(block));
    }
  for (const message of messages) {
    if (typeof message.content === 'string') {
      events.push(...eventsFromText(message.content));
      continue;
    }
    for (const item of message.content) {
      const block = asBlock(item);
      if (block) events.push(...eventsFromBlock(block));
    }
  }
  return events;
}

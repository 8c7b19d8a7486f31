/**
 * F2 — Anthropic message normalization, applied to a copy of the history on every request. It
 * is deterministic (same messages and pool → same output), so the cached prompt prefix holds.
 *
 * - References off for this request (kill switch, unsupported model, client expansion): every
 *   `tool_reference` block, every server-side tool-search block goes; `caller` fields go always.
 * - References on: a reference to a tool no longer in the pool is dropped (the API rejects it).
 * - Turn boundary: text siblings of a reference-bearing user message move to the next user
 *   message that has tool results but no references (they stay when there is none); then a
 *   reference-bearing user message without text gets a minimal "Tool loaded." sibling, so the
 *   expanded definitions never end a human turn bare.
 * - Tool changes (F9) off for this request: `tool_addition` / `tool_removal` blocks go (a
 *   `role: "system"` message left empty goes with them); the loaded tools reach the model the way
 *   this request loads tools instead.
 */
import type {
  ContentBlock,
  ContentBlockParam,
  MessageParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { ANTHROPIC_SERVER_SEARCH_NAMES } from '../shared/calls.js';

export const TOOL_LOADED_TEXT = 'Tool loaded.';

export interface NormalizeOptions {
  /** Whether this request may carry `tool_reference` blocks. */
  readonly references: boolean;
  /** Tool names the request can resolve a reference to. */
  readonly available: ReadonlySet<string>;
  /** F9: whether this request may carry `tool_addition` / `tool_removal` blocks (default false). */
  readonly toolChanges?: boolean;
}

type ResultContent = Exclude<ToolResultBlockParam['content'], string | undefined>;
type ResultItem = ResultContent[number];

const SERVER_SEARCH = new Set<string>(ANTHROPIC_SERVER_SEARCH_NAMES);

function isReference(item: { type: string }): item is { type: 'tool_reference'; tool_name: string } {
  return item.type === 'tool_reference';
}

/** The text left where references were dropped, so a tool_result never ends up empty. */
function droppedReferencesText(names: readonly string[], references: boolean): string {
  return references ? `No longer available: ${names.join(', ')}.` : `Tools loaded: ${names.join(', ')}.`;
}

function normalizeResultContent(content: ResultContent, o: NormalizeOptions): ResultContent {
  const kept: ResultItem[] = [];
  const dropped: string[] = [];
  for (const item of content) {
    if (isReference(item) && (!o.references || !o.available.has(item.tool_name))) dropped.push(item.tool_name);
    else kept.push(item);
  }
  if (dropped.length === 0) return content;
  if (!kept.some((k) => isReference(k) || k.type === 'text'))
    kept.push({ type: 'text', text: droppedReferencesText(dropped, o.references) });
  return kept;
}

/** F9's blocks (not in the GA types: they live in `role: "system"` messages). */
function isToolChange(block: { type: string }): boolean {
  return block.type === 'tool_addition' || block.type === 'tool_removal';
}

function normalizeBlock(block: ContentBlockParam, o: NormalizeOptions): ContentBlockParam | undefined {
  if (isToolChange(block)) return o.toolChanges === true ? block : undefined;
  switch (block.type) {
    case 'tool_use': {
      if (!('caller' in block)) return block;
      const { caller: _caller, ...rest } = block;
      return rest;
    }
    case 'server_tool_use':
      return !o.references && SERVER_SEARCH.has(block.name) ? undefined : block;
    case 'tool_search_tool_result': {
      if (!o.references) return undefined;
      const content = block.content;
      if (content.type !== 'tool_search_tool_search_result') return block;
      const refs = content.tool_references.filter((r) => o.available.has(r.tool_name));
      return refs.length === content.tool_references.length
        ? block
        : { ...block, content: { ...content, tool_references: refs } };
    }
    case 'tool_result':
      return Array.isArray(block.content) ? { ...block, content: normalizeResultContent(block.content, o) } : block;
    default:
      return block;
  }
}

function hasReferences(blocks: readonly ContentBlockParam[]): boolean {
  return blocks.some((b) => b.type === 'tool_result' && Array.isArray(b.content) && b.content.some(isReference));
}

function hasToolResults(blocks: readonly ContentBlockParam[]): boolean {
  return blocks.some((b) => b.type === 'tool_result');
}

/** F2 turn boundary: relocate text siblings, then give bare reference messages "Tool loaded.". */
function fixTurnBoundaries(messages: MessageParam[]): void {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'user' || typeof message.content === 'string' || !hasReferences(message.content)) continue;
    const texts = message.content.filter((b) => b.type === 'text');
    if (texts.length > 0) {
      const target = messages.findIndex(
        (m, j) =>
          j > i &&
          m.role === 'user' &&
          typeof m.content !== 'string' &&
          hasToolResults(m.content) &&
          !hasReferences(m.content),
      );
      const targetMessage = messages[target];
      if (targetMessage && typeof targetMessage.content !== 'string') {
        messages[target] = { ...targetMessage, content: [...targetMessage.content, ...texts] } as MessageParam;
        messages[i] = { ...message, content: message.content.filter((b) => b.type !== 'text') } as MessageParam;
      }
    }
    const current = messages[i]!;
    if (typeof current.content !== 'string' && !current.content.some((b) => b.type === 'text')) {
      messages[i] = {
        ...current,
        content: [...current.content, { type: 'text', text: TOOL_LOADED_TEXT }],
      } as MessageParam;
    }
  }
}

export function normalizeAnthropicMessages(
  messages: readonly MessageParam[],
  options: NormalizeOptions,
): MessageParam[] {
  const out = messages.flatMap((message): MessageParam[] => {
    if (typeof message.content === 'string') return [message];
    const content = message.content.flatMap((block) => {
      const normalized = normalizeBlock(block, options);
      return normalized ? [normalized] : [];
    });
    // A turn that held only server-side search blocks is dropped: the API rejects empty content
    // and merges the neighbouring turns of one role.
    if (content.length === 0 && message.content.length > 0) return [];
    return [{ ...message, content } as MessageParam];
  });
  if (options.references) fixTurnBoundaries(out);
  return out;
}

function addReferences(blocks: readonly (ContentBlock | ContentBlockParam)[], names: Set<string>): void {
  for (const block of blocks) {
    if (block.type === 'tool_result' && Array.isArray(block.content)) {
      for (const item of block.content) if (isReference(item)) names.add(item.tool_name);
    } else if (block.type === 'tool_search_tool_result' && block.content.type === 'tool_search_tool_search_result') {
      for (const ref of block.content.tool_references) names.add(ref.tool_name);
    }
  }
}

/** Tools a request's messages reference (client `tool_reference` blocks and server search results). */
export function referencedTools(messages: readonly MessageParam[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) if (typeof message.content !== 'string') addReferences(message.content, names);
  return names;
}

/**
 * Tools one response loads for its own calls: Anthropic's server-side search answers inside the
 * response (`server_tool_use` → `tool_search_tool_result` → `tool_use` of the found tool), and the
 * API has already expanded those references, so the calls after them are calls of loaded tools.
 */
export function loadedByResponse(content: readonly (ContentBlock | ContentBlockParam)[]): Set<string> {
  const names = new Set<string>();
  addReferences(content, names);
  return names;
}

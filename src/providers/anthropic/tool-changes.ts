/**
 * F9 — Anthropic's mid-conversation tool changes, by value. Instead of sending deferred tools with
 * `defer_loading` and expanding `tool_reference` blocks (F1), a tool a search loaded is added at
 * that point of the conversation: a `role: "system"` message right after the user turn carrying
 * the search's result holds a `tool_addition` block with the tool's whole definition, and a tool a
 * bounded working set let go gets a `tool_removal` there. The `tools` array never changes and no
 * deferred catalog goes up front: the cached prefix grows only at its end.
 *
 * Read from Anthropic's page on mid-conversation system messages and tool changes (copy fetched
 * 2026-09-26, https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages):
 * - the blocks go in the `content` of a `role: "system"` message, which must follow a user turn
 *   (one carrying `tool_result` blocks counts) and precede an assistant turn or end `messages`;
 * - by value (`{type: "tool_definition", definition}`) needs the `inline-tools-2026-09-15` beta,
 *   "available on the Claude API" (it also covers changes by reference);
 * - "Keep at least one non-deferred tool in `tools`": without one, the first tool defined by value
 *   "changes the start of the rendered prompt, which costs one full cache miss"; "a tool search
 *   tool counts as non-deferred". The page names no placeholder deferred tool (what one client
 *   library does): this mode always sends the search tool, non-deferred (`keepsNonDeferredTool`).
 *
 * The history stays the source of truth (D1): a search's result records what it loaded and let go
 * in its `<tools-loaded>` / `<tools-unloaded>` markers, and each request renders the system
 * message from them. A definition, once rendered at a position, is kept (`AdditionMemo`), so a
 * server that reconnects, or changes a tool's text, never changes an earlier turn.
 */
import type {
  BetaRequestToolAdditionBlock,
  BetaRequestToolRemovalBlock,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { MessageParam, Tool, ToolResultBlockParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { readAnthropicHistory, toolChangeName } from '../../core/anthropic-history.js';
import type { ToolSpec } from '../../core/tool.js';
import { toAnthropicTool } from './wire.js';

/** The beta that lets a `tool_addition` carry a definition (and covers changes by reference). */
export const TOOL_CHANGES_BETA = 'inline-tools-2026-09-15';

/** What a request's history may hold in a `role: "system"` message (the GA types have no such role). */
export type ToolChangeBlock = BetaRequestToolAdditionBlock | BetaRequestToolRemovalBlock;
export interface SystemMessage {
  readonly role: 'system';
  readonly content: string | readonly unknown[];
}

/**
 * Anthropic's own limit is 10,000 tools defined after the first user message; the memo keeps as
 * many definitions, the oldest going first.
 */
export const ADDITION_MEMO_LIMIT = 10_000;

/**
 * Each definition as first rendered at its position (the search call that loaded it), so every
 * later request renders the same bytes there, whatever the pool says now. One per adapter.
 */
export class AdditionMemo {
  private readonly definitions = new Map<string, Tool>();

  constructor(private readonly limit = ADDITION_MEMO_LIMIT) {}

  definition(position: string, tool: string, current: () => ToolSpec | undefined): Tool | undefined {
    const key = `${position}\u0000${tool}`;
    const known = this.definitions.get(key);
    if (known) return known;
    const spec = current();
    if (!spec) return undefined;
    const definition = toAnthropicTool(spec);
    if (this.definitions.size >= this.limit) this.definitions.delete(this.definitions.keys().next().value!);
    this.definitions.set(key, definition);
    return definition;
  }

  get size(): number {
    return this.definitions.size;
  }
}

export function additionOf(definition: Tool): BetaRequestToolAdditionBlock {
  return { type: 'tool_addition', tool: { type: 'tool_definition', definition } };
}

export function removalOf(name: string): BetaRequestToolRemovalBlock {
  return { type: 'tool_removal', tool: { type: 'tool_reference', name } };
}

/** The docs' rule: at least one tool in `tools` without `defer_loading` (the search tool is one). */
export function keepsNonDeferredTool(tools: readonly ToolUnion[]): boolean {
  return tools.some((tool) => !('defer_loading' in tool) || tool.defer_loading !== true);
}

/** What rendering left out, for the adapter's one line. */
export interface RenderedChanges {
  readonly messages: MessageParam[];
  /** Loaded names nothing could define (not in the pool, not rendered before). */
  readonly undefinable: readonly string[];
  /** By-reference additions to names the request does not declare, and what became of them. */
  readonly converted: readonly string[];
  readonly dropped: readonly string[];
}

interface RenderContext {
  readonly memo: AdditionMemo;
  /** The pool's tool by name (kept tools of reconnecting servers included). */
  readonly find: (name: string) => ToolSpec | undefined;
  /** Names the request's `tools` declares (a by-reference addition to them resolves). */
  readonly declared: ReadonlySet<string>;
}

/**
 * Every user turn whose tool results recorded loads or unloads (markers, or `tool_reference`
 * blocks from an earlier native request) is followed by a system message with the changes — all
 * but those the system messages already there name (a caller that stores what it sent).
 */
export function renderToolChanges(history: readonly MessageParam[], context: RenderContext): RenderedChanges {
  const out: MessageParam[] = [];
  const undefinable: string[] = [];
  const converted: string[] = [];
  const dropped: string[] = [];
  const definedByValue = new Set<string>();
  history.forEach((message, index) => {
    if (isSystemMessage(message)) {
      const fixed = resolveReferences(message, context, definedByValue, converted, dropped);
      if (fixed) out.push(fixed as unknown as MessageParam);
      return;
    }
    out.push(message);
    if (message.role !== 'user' || typeof message.content === 'string') return;
    const present = changedAfter(history, index);
    const changes = changesOf(message, context, undefinable).filter((b) => !present.has(changeKey(b)));
    for (const block of changes) if (block.type === 'tool_addition') definedByValue.add(toolChangeName(block.tool)!);
    if (changes.length > 0) out.push({ role: 'system', content: changes } as unknown as MessageParam);
  });
  return { messages: out, undefinable, converted, dropped };
}

/** `tool_addition:name` / `tool_removal:name`. */
function changeKey(block: { type?: unknown; tool?: unknown }): string {
  return `${String(block.type)}:${toolChangeName(block.tool) ?? ''}`;
}

/** The tool changes the system messages right after `index` already hold. */
function changedAfter(history: readonly MessageParam[], index: number): Set<string> {
  const keys = new Set<string>();
  for (let i = index + 1; isSystemMessage(history[i]); i++) {
    const content = history[i]!.content as string | readonly { type?: unknown; tool?: unknown }[];
    if (typeof content !== 'string') for (const block of content) keys.add(changeKey(block));
  }
  return keys;
}

function isSystemMessage(message: MessageParam | undefined): boolean {
  return (message as { role?: string } | undefined)?.role === 'system';
}

/** The removals, then the additions, one user turn's tool results recorded. */
function changesOf(message: MessageParam, context: RenderContext, undefinable: string[]): ToolChangeBlock[] {
  const events = readAnthropicHistory([message]);
  const removals = events.flatMap((e) => (e.type === 'unloaded' ? e.names : []));
  const loads = [...new Set(events.flatMap((e) => (e.type === 'loaded' ? e.names : [])))];
  const position = positionOf(message);
  const additions = loads.flatMap((name) => {
    const definition = context.memo.definition(position, name, () => context.find(name));
    if (definition) return [additionOf(definition)];
    undefinable.push(name);
    return [];
  });
  return [...removals.map(removalOf), ...additions];
}

/** A user turn's identity across requests: the ids of the tool calls it answers. */
function positionOf(message: MessageParam): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])).join(',');
}

/**
 * A caller's own system message goes as sent, except a `tool_addition` by reference to a name the
 * request does not declare (the API answers 400 `tool_reference_unresolved`): defined by value
 * from the pool when it has the tool, else left out.
 */
function resolveReferences(
  message: MessageParam,
  context: RenderContext,
  definedByValue: Set<string>,
  converted: string[],
  dropped: string[],
): SystemMessage | undefined {
  const content = message.content as string | readonly { type?: unknown; tool?: unknown }[];
  if (typeof content === 'string') return message as unknown as SystemMessage;
  let changed = false;
  const blocks = content.flatMap((block) => {
    const name = toolChangeName(block.tool);
    if (block.type !== 'tool_addition' || name === undefined) return [block];
    const byReference = (block.tool as { type?: unknown }).type === 'tool_reference';
    if (!byReference) definedByValue.add(name);
    if (!byReference || context.declared.has(name) || definedByValue.has(name)) return [block];
    changed = true;
    const spec = context.find(name);
    if (!spec) {
      dropped.push(name);
      return [];
    }
    converted.push(name);
    definedByValue.add(name);
    return [additionOf(toAnthropicTool(spec))];
  });
  if (!changed) return message as unknown as SystemMessage;
  return blocks.length > 0 ? { role: 'system', content: blocks } : undefined;
}

/**
 * A 400 that says the endpoint refuses what this mode sends: the beta header, a `role: "system"`
 * message, or the tool-change blocks (an older model, a gateway that filters betas).
 */
export function isToolChangesRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  if (status !== 400) return false;
  const text = error instanceof Error ? error.message : String(error);
  return /inline-tools|tool_addition|tool_removal|tool_definition|anthropic-beta|role '?system'?|system role/i.test(
    text,
  );
}

/** The adapter's one-line notices about a rendering, each with the key it is said once under. */
export function renderNotices(rendered: RenderedChanges): { key: string; line: string }[] {
  const notices: { key: string; line: string }[] = [];
  if (rendered.undefinable.length > 0)
    notices.push({
      key: `undefinable:${rendered.undefinable.join(',')}`,
      line: `toolsearch: the history loaded ${rendered.undefinable.join(', ')}, which the pool no longer has and no earlier request defined: not added again (a call to it answers that it is gone)`,
    });
  if (rendered.converted.length > 0 || rendered.dropped.length > 0)
    notices.push({
      key: `references:${[...rendered.converted, ...rendered.dropped].join(',')}`,
      line: `toolsearch: the history adds tools by reference that this request does not declare (the API would answer 400): ${[
        ...rendered.converted.map((n) => `${n} defined by value`),
        ...rendered.dropped.map((n) => `${n} left out (not in the pool)`),
      ].join(', ')}`,
    });
  return notices;
}

/** A call of a tool the conversation added by value that no server lists any more. */
export function goneToolRun(block: { readonly id: string; readonly name: string }): {
  result: ToolResultBlockParam;
  infrastructure: false;
  output: string;
} {
  const text = `Tool "${block.name}" is no longer available: no connected server lists it. Search for another tool that does this.`;
  return {
    result: { type: 'tool_result', tool_use_id: block.id, content: text, is_error: true },
    infrastructure: false,
    output: text,
  };
}

/**
 * E5: the working set's clock from the history: where each tool was last called or loaded (the
 * message index), so a bounded set lets go of what the conversation stopped using.
 */
export function lastUsedOf(messages: readonly MessageParam[]): Map<string, number> {
  const clock = new Map<string, number>();
  messages.forEach((message, index) => {
    if (typeof message.content === 'string') return;
    for (const block of message.content) if (block.type === 'tool_use') clock.set(block.name, index);
    for (const event of readAnthropicHistory([message]))
      if (event.type === 'loaded') for (const name of event.names) clock.set(name, index);
  });
  return clock;
}

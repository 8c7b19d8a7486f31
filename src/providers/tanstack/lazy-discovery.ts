/**
 * F6 — lazy tool discovery with TanStack AI's wire contract, for any loop: the discovery tool
 * `__lazy__tool__discovery__` (its description lists the lazy names), input `{toolNames}`, output
 * `{tools: [{name, description, inputSchema}], errors?}`, the "must be discovered first" error,
 * no discovery tool at all without lazy tools, and the discovery tool dropped from the
 * advertised set once everything is discovered (but still executable). Earlier discoveries are
 * re-derived from the history's discovery calls and their results, so no state is kept (D1).
 *
 * A conversation started with TanStack `chat()` can continue here and vice versa: the strings
 * and shapes are the contract, and they are asserted against @tanstack/ai in the tests.
 *
 * E5 — one difference, in order only: TanStack advertises the discovery tool last, so each
 * discovery changes the list before its end and a provider's cached prompt is written again from
 * the tools on. Here discovered tools come after it, in discovery order, so each list keeps the
 * previous one as its prefix. `toolList: 'fixed'` keeps the list as it starts (eager tools, the
 * discovery tool and `call_tool`): discovered tools run through `call_tool`, and nothing changes.
 */
import { CALL_TOOL_INPUT_SCHEMA, CALL_TOOL_NAME } from '../../core/search-tool.js';
import { callThroughInput, DISCOVERY_TOOL_NAME } from '../shared/calls.js';
import { checkArguments } from '../../core/argument-check.js';
import { closestToolNames, unknownToolText } from '../../search/did-you-mean.js';

export { DISCOVERY_TOOL_NAME };

/** A plain JSON Schema object (not a Zod or Standard Schema instance, which carry their own validators). */
function isJsonSchema(schema: unknown): schema is Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  if ('~standard' in schema || '_def' in schema || '_zod' in schema) return false;
  return 'type' in schema || 'properties' in schema;
}

export type IncludeDescription = 'full' | 'first-sentence' | 'none';

/** A tool as TanStack AI's `Tool` has it (structurally): `lazy` marks it discoverable on demand. */
export interface LazyTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: unknown;
  readonly lazy?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: TanStack tools take whatever their schema says; `unknown` would reject every typed execute.
  readonly execute?: (args: any) => unknown;
}

export interface DiscoveredTool {
  name: string;
  description: string;
  inputSchema?: unknown;
}

export interface DiscoveryResult {
  tools: DiscoveredTool[];
  errors?: string[];
}

interface CallLike {
  readonly id: string;
  readonly function: { readonly name: string };
}

/** A history message in TanStack's shape (`toolCalls`, `toolCallId`) or OpenAI's (`tool_calls`, `tool_call_id`). */
export interface DiscoveryMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly toolCalls?: readonly CallLike[];
  readonly tool_calls?: readonly CallLike[];
  readonly toolCallId?: string;
  readonly tool_call_id?: string;
}

export const DISCOVERY_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    toolNames: {
      type: 'array',
      items: { type: 'string' },
      description: 'List of tool names to discover. Each name must match one of the available tools.',
    },
  },
  required: ['toolNames'],
} as const;

/** F6's self-correction text, word for word TanStack's. */
export function undiscoveredLazyToolError(name: string): string {
  return `Error: Tool '${name}' must be discovered first. Call ${DISCOVERY_TOOL_NAME} with toolNames: ['${name}'] to discover it.`;
}

function firstSentenceOf(text: string): string {
  const trimmed = text.trim();
  const end = /[.!?](?=\s|$)/.exec(trimmed);
  return end ? trimmed.slice(0, end.index + 1) : trimmed;
}

function catalogEntry(tool: LazyTool, include: IncludeDescription): string {
  if (include === 'none' || !tool.description.trim()) return tool.name;
  const text = include === 'first-sentence' ? firstSentenceOf(tool.description) : tool.description.trim();
  return text ? `${tool.name} — ${text}` : tool.name;
}

export function discoveryToolDescription(lazyTools: readonly LazyTool[], include: IncludeDescription = 'none'): string {
  const entries = lazyTools.map((t) => catalogEntry(t, include)).join(', ');
  return (
    `You have access to additional tools that can be discovered. Available tools: [${entries}]. ` +
    'Call this tool with a list of tool names to discover their full descriptions and argument schemas before using them.'
  );
}

function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return undefined;
  return JSON.stringify(content);
}

/** D1: the lazy tools earlier discovery results named, found through their call ids. */
export function discoveredFromHistory(
  messages: readonly DiscoveryMessage[],
  lazyNames: ReadonlySet<string>,
): Set<string> {
  const callIds = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? m.tool_calls ?? [])
      if (call.function.name === DISCOVERY_TOOL_NAME) callIds.add(call.id);
  }
  const found = new Set<string>();
  if (callIds.size === 0) return found;
  for (const m of messages) {
    const id = m.toolCallId ?? m.tool_call_id;
    if (m.role !== 'tool' || id === undefined || !callIds.has(id)) continue;
    try {
      const parsed = JSON.parse(contentText(m.content) ?? '') as { tools?: unknown };
      if (!Array.isArray(parsed.tools)) continue;
      for (const t of parsed.tools as { name?: unknown }[])
        if (typeof t?.name === 'string' && lazyNames.has(t.name)) found.add(t.name);
    } catch {
      // A result that is not the discovery JSON discovers nothing.
    }
  }
  return found;
}

export interface LazyDiscoveryOptions {
  readonly includeDescription?: IncludeDescription;
  /**
   * E5: "growing" (the default): discovered tools join the advertised list at its end.
   * "fixed": the list never changes; discovered tools run through `call_tool`.
   */
  readonly toolList?: 'growing' | 'fixed';
}

const CALL_TOOL_DESCRIPTION =
  `Call a tool that ${DISCOVERY_TOOL_NAME} discovered, by name, with its arguments as the discovery result ` +
  'describes them. Your tool list does not change.';

/** One request's view of the lazy tools: build it from the tools and the history, per request. */
export class LazyToolDiscovery<T extends LazyTool = LazyTool> {
  readonly eager: readonly T[];
  readonly lazy: ReadonlyMap<string, T>;
  readonly discovered: Set<string>;
  /** Null when no tool is lazy (zero overhead). */
  readonly discoveryTool: LazyTool | null;
  /** E5: the call-through tool of a fixed list (null for a growing one, or when no tool is lazy). */
  readonly callTool: LazyTool | null;
  private fresh = false;

  constructor(tools: readonly T[], messages: readonly DiscoveryMessage[] = [], options: LazyDiscoveryOptions = {}) {
    this.eager = tools.filter((t) => !t.lazy);
    this.lazy = new Map(tools.filter((t) => t.lazy).map((t) => [t.name, t]));
    this.discovered = discoveredFromHistory(messages, new Set(this.lazy.keys()));
    this.discoveryTool =
      this.lazy.size === 0
        ? null
        : {
            name: DISCOVERY_TOOL_NAME,
            description: discoveryToolDescription([...this.lazy.values()], options.includeDescription),
            inputSchema: DISCOVERY_INPUT_SCHEMA,
            execute: (args: { toolNames?: unknown }) =>
              this.discover(Array.isArray(args?.toolNames) ? args.toolNames : []),
          };
    this.callTool =
      this.lazy.size === 0 || options.toolList !== 'fixed'
        ? null
        : {
            name: CALL_TOOL_NAME,
            description: CALL_TOOL_DESCRIPTION,
            inputSchema: CALL_TOOL_INPUT_SCHEMA,
            execute: (args: unknown) => this.callThrough(args),
          };
  }

  /**
   * What to advertise. Growing: eager, the discovery tool while any is undiscovered, then the
   * discovered lazy tools in discovery order (appended, so the previous list stays a prefix).
   * Fixed: eager, the discovery tool and `call_tool`, always.
   */
  activeTools(): (T | LazyTool)[] {
    this.fresh = false;
    const active: (T | LazyTool)[] = [...this.eager];
    if (this.callTool) return [...active, this.discoveryTool!, this.callTool];
    if (this.discoveryTool && this.discovered.size < this.lazy.size) active.push(this.discoveryTool);
    for (const name of this.discovered) active.push(this.lazy.get(name)!);
    return active;
  }

  /** What may run this turn: the advertised set, plus the discovery tool if a pending call asks for it. */
  executableTools(active: readonly (T | LazyTool)[], pendingCallNames: readonly string[]): (T | LazyTool)[] {
    const needsDiscovery =
      this.discoveryTool &&
      pendingCallNames.includes(DISCOVERY_TOOL_NAME) &&
      !active.some((t) => t.name === DISCOVERY_TOOL_NAME);
    return needsDiscovery ? [...active, this.discoveryTool!] : [...active];
  }

  isUndiscovered(name: string): boolean {
    return this.lazy.has(name) && !this.discovered.has(name);
  }

  /** True once since the last `activeTools()` if a discovery added tools (refresh the tools then). */
  get hasNewDiscoveries(): boolean {
    return this.fresh;
  }

  discover(toolNames: readonly unknown[]): DiscoveryResult {
    const tools: DiscoveredTool[] = [];
    const errors: string[] = [];
    for (const name of toolNames) {
      const tool = typeof name === 'string' ? this.lazy.get(name) : undefined;
      if (!tool) {
        const remaining = [...this.lazy.keys()].filter((n) => !this.discovered.has(n));
        errors.push(`Unknown tool: '${String(name)}'. Available tools: [${remaining.join(', ')}]`);
        continue;
      }
      if (!this.discovered.has(tool.name)) {
        this.discovered.add(tool.name);
        // A fixed list has nothing to refresh.
        this.fresh = this.callTool === null;
      }
      tools.push({
        name: tool.name,
        description: tool.description,
        ...(tool.inputSchema !== undefined && { inputSchema: tool.inputSchema }),
      });
    }
    return errors.length ? { tools, errors } : { tools };
  }

  /** Run a call the TanStack way: discovery, the self-correction error, or the tool itself. */
  async execute(name: string, args: unknown): Promise<unknown> {
    if (name === DISCOVERY_TOOL_NAME && this.discoveryTool) return this.discoveryTool.execute!(args);
    if (name === CALL_TOOL_NAME && this.callTool) return this.callThrough(args);
    if (this.isUndiscovered(name)) throw new Error(undiscoveredLazyToolError(name));
    const tool = this.lazy.get(name) ?? this.eager.find((t) => t.name === name);
    if (!tool?.execute) {
      // C15: a near miss gets the closest names (by name and edits: TanStack has no search scorer).
      const known = [...this.lazy.values(), ...this.eager];
      const closest = closestToolNames(name, known).flatMap((n) => {
        const t = known.find((k) => k.name === n);
        return t
          ? [
              {
                name: t.name,
                description: t.description,
                ...(isJsonSchema(t.inputSchema) && { inputSchema: t.inputSchema }),
              },
            ]
          : [];
      });
      throw new Error(
        closest.length > 0 ? unknownToolText(name, closest, DISCOVERY_TOOL_NAME) : `Unknown tool: '${name}'`,
      );
    }
    // C15: a JSON Schema is checked before the tool runs (a Zod or Standard Schema is TanStack's own to check).
    if (isJsonSchema(tool.inputSchema)) {
      const check = checkArguments(
        { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
        args,
      );
      if (!check.ok) throw new Error(check.message);
    }
    return tool.execute(args);
  }

  /** E5: `call_tool {name, arguments}` of a fixed list runs the named tool as a call by name would. */
  private async callThrough(args: unknown): Promise<unknown> {
    const target = callThroughInput(args);
    if (target === undefined || target.name === CALL_TOOL_NAME)
      throw new Error(`${CALL_TOOL_NAME} needs the name of a discovered tool and its arguments.`);
    return this.execute(target.name, target.arguments);
  }
}

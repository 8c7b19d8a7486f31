/**
 * E4 in the gateway — which servers the budgeted announcement names once not all of them fit: the
 * servers this session recently loaded tools from first, then those learned evidence favours (C13),
 * then by size. The announcement sits in `tool_search`'s description, at the front of the prompt,
 * so it may change only when the session's tool list changes anyway: a catalog change (list_changed
 * to every session) or the session loading tools (list_changed to that session). Between those, a
 * `tools/list` returns the same text (the cached prefix stays stable); the learned order is read
 * once per catalog version, never per request.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { ServerGroup, ServerPriority } from '../../core/announce-budget.js';
import type { Catalog } from '../../core/catalog.js';
import type { ToolSpec } from '../../core/tool.js';
import { type AnnounceBudget, searchToolAnnouncing, searchToolDefinition } from './definitions.js';

/** Search tools kept per catalog version for distinct recent-server lists (sessions share equal lists). */
const MAX_RANKED_VARIANTS = 256;
/** Recent servers that count: the announcement names at most a few dozen servers past the budget anyway. */
const MAX_RECENT_SERVERS = 16;

/** Per tool name, the searches that led to it (C13's learned log); absent when learning is off. */
export type LearnedSearches = () => Iterable<{ readonly tool: string; readonly searches: number }>;

interface VersionEntry {
  readonly version: number;
  readonly deferred: ReadonlySet<string>;
  /** The search tool for a session that loaded nothing (learned order, then size). */
  readonly base: Tool;
  /** Whether the base announcement left servers out: only then can the order change what it names. */
  readonly leftOut: boolean;
  readonly priority: ServerPriority | undefined;
  readonly ranked: Map<string, Tool>;
}

export class AnnouncedSearchTool {
  private entry: VersionEntry | undefined;

  constructor(
    private readonly catalog: Catalog,
    private readonly budget: () => AnnounceBudget,
    private readonly learned?: LearnedSearches,
  ) {}

  /** `tool_search` with the announcement for a session that loaded `discovered` (oldest first). */
  tool(deferred: ReadonlySet<string>, discovered: readonly string[] = []): Tool {
    const entry = this.current(deferred);
    if (!entry.leftOut) return entry.base;
    const recent = recentServers(this.catalog, discovered);
    if (recent.length === 0) return entry.base;
    const key = recent.join('\n');
    let tool = entry.ranked.get(key);
    if (!tool) {
      if (entry.ranked.size >= MAX_RANKED_VARIANTS) entry.ranked.clear();
      tool = searchToolDefinition(this.catalog, deferred, {
        ...this.budget(),
        recentServers: recent,
        ...(entry.priority && { priority: entry.priority }),
      });
      entry.ranked.set(key, tool);
    }
    return tool;
  }

  private current(deferred: ReadonlySet<string>): VersionEntry {
    const version = this.catalog.version;
    const last = this.entry;
    if (last && last.version === version && last.deferred === deferred) return last;
    const priority = this.learnedPriority();
    const budget = { ...this.budget(), ...(priority && { priority }) };
    const { tool: base, leftOut } = searchToolAnnouncing(this.catalog, deferred, budget);
    this.entry = {
      version,
      deferred,
      base,
      leftOut: leftOut > 0,
      priority,
      ranked: new Map(),
    };
    return this.entry;
  }

  /**
   * C13 → E4: servers whose tools searches led to, most searches first; size breaks ties and orders
   * the servers without evidence. A snapshot per catalog version, so the order cannot churn between
   * catalog changes however often the log learns.
   */
  private learnedPriority(): ServerPriority | undefined {
    if (!this.learned) return undefined;
    const perServer = new Map<string, number>();
    for (const { tool, searches } of this.learned()) {
      const spec = this.catalog.get(tool);
      if (spec?.origin.kind !== 'mcp' || searches <= 0) continue;
      const key = `mcp__${spec.origin.server}`;
      perServer.set(key, (perServer.get(key) ?? 0) + searches);
    }
    if (perServer.size === 0) return undefined;
    return (group: ServerGroup) => (perServer.get(group.key) ?? 0) * 1e6 + group.tools;
  }
}

/** The MCP servers of a session's loaded tools, most recently loaded first (a server with no deferred tool left is not a group, so it names nothing). */
export function recentServers(catalog: Pick<Catalog, 'get'>, discovered: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = discovered.length - 1; i >= 0 && out.length < MAX_RECENT_SERVERS; i--) {
    const spec: ToolSpec | undefined = catalog.get(discovered[i]!);
    if (spec?.origin.kind === 'mcp' && !out.includes(spec.origin.server)) out.push(spec.origin.server);
  }
  return out;
}

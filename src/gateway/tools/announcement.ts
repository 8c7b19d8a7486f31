/**
 * E4 in the gateway — which servers the budgeted announcement names once not all of them fit:
 * those learned evidence favours (C13), then by size. The announcement sits in `tool_search`'s
 * description, at the front of the prompt, so it changes only with the catalog (list_changed to
 * every session), never with what one session loads (E5: a search must not rebuild the client's
 * cached prompt from its first tool on); the learned order is read once per catalog version.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { ServerGroup, ServerPriority } from '../../core/announce-budget.js';
import type { Catalog } from '../../core/catalog.js';
import { type AnnounceBudget, searchToolAnnouncing } from './definitions.js';

/** Per tool name, the searches that led to it (C13's learned log); absent when learning is off. */
export type LearnedSearches = () => Iterable<{ readonly tool: string; readonly searches: number }>;

interface VersionEntry {
  readonly version: number;
  readonly deferred: ReadonlySet<string>;
  /** The search tool (learned order, then size). */
  readonly base: Tool;
}

export class AnnouncedSearchTool {
  private entry: VersionEntry | undefined;

  constructor(
    private readonly catalog: Catalog,
    private readonly budget: () => AnnounceBudget,
    private readonly learned?: LearnedSearches,
  ) {}

  /** `tool_search` with the announcement, the same for every session of one catalog version. */
  tool(deferred: ReadonlySet<string>): Tool {
    return this.current(deferred).base;
  }

  private current(deferred: ReadonlySet<string>): VersionEntry {
    const version = this.catalog.version;
    const last = this.entry;
    if (last && last.version === version && last.deferred === deferred) return last;
    const priority = this.learnedPriority();
    const budget = { ...this.budget(), ...(priority && { priority }) };
    this.entry = { version, deferred, base: searchToolAnnouncing(this.catalog, deferred, budget).tool };
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

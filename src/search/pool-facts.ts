/**
 * What a search needs that depends only on the pool of deferred tools — each server's tools and
 * one-line summary, server names, the name order for `mcp__` prefixes — computed once per pool
 * (the searcher keeps one per catalog version) instead of walking the whole pool on every query,
 * so a search costs the same outside the ranker at 500 tools or 50,000.
 */
import type { ServerInfo, ToolSpec } from '../core/tool.js';
import { serverSummary } from './suggest.js';

interface NameEntry {
  readonly lower: string;
  readonly index: number;
}

export class PoolFacts {
  private byServer: Map<string, ToolSpec[]> | undefined;
  private serverNames: Map<string, string> | undefined;
  private sortedNames: NameEntry[] | undefined;
  private readonly summaries = new Map<string, string>();
  private summariesFor: ReadonlyMap<string, ServerInfo> | undefined;

  constructor(readonly tools: readonly ToolSpec[]) {}

  /** Deferred tools of one MCP server, in pool order. */
  toolsOf(server: string): readonly ToolSpec[] {
    if (!this.byServer) {
      this.byServer = new Map();
      for (const tool of this.tools) {
        if (tool.origin.kind !== 'mcp') continue;
        const list = this.byServer.get(tool.origin.server);
        if (list) list.push(tool);
        else this.byServer.set(tool.origin.server, [tool]);
      }
    }
    return this.byServer.get(server) ?? [];
  }

  /** C12: `serverSummary`, once per server while the servers' own info stays the same. */
  summary(server: string, servers: ReadonlyMap<string, ServerInfo> | undefined): string {
    if (this.summariesFor !== servers) {
      this.summaries.clear();
      this.summariesFor = servers;
    }
    let text = this.summaries.get(server);
    if (text === undefined) {
      text = serverSummary(server, this.toolsOf(server), servers?.get(server));
      this.summaries.set(server, text);
    }
    return text;
  }

  /** E4: the server a query names exactly (case-insensitive), so a server left unannounced is still found. */
  serverNamed(text: string): string | undefined {
    if (!this.serverNames) {
      this.serverNames = new Map();
      for (const tool of this.tools)
        if (tool.origin.kind === 'mcp') this.serverNames.set(tool.origin.server.toLowerCase(), tool.origin.server);
    }
    return this.serverNames.get(text.toLowerCase());
  }

  /** C3: deferred tools whose name starts with `prefix` (lowercase), in pool order; a binary search, not a walk. */
  withPrefix(prefix: string): ToolSpec[] {
    const sorted = (this.sortedNames ??= this.tools
      .map((t, index) => ({ lower: t.name.toLowerCase(), index }))
      .sort((a, b) => (a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : a.index - b.index)));
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.lower < prefix) lo = mid + 1;
      else hi = mid;
    }
    const hits: number[] = [];
    for (let i = lo; i < sorted.length && sorted[i]!.lower.startsWith(prefix); i++) hits.push(sorted[i]!.index);
    return hits.sort((a, b) => a - b).map((i) => this.tools[i]!);
  }

  /** The distinct MCP servers of some tools, in order of first appearance. */
  static serversOf(tools: readonly ToolSpec[]): string[] {
    const seen = new Set<string>();
    for (const t of tools) if (t.origin.kind === 'mcp') seen.add(t.origin.server);
    return [...seen];
  }
}

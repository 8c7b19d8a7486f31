/**
 * D3 for `tools/list` at any catalog size: the always-loaded tools (as MCP tools) and the pool's
 * names are computed once per catalog version, so a session's list costs its own
 * discoveries, not a pass over every deferred tool (a filter over 50,000 tools per request was
 * most of `tools/list`; bench/results/gateway-scale.md).
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { ToolSpec } from '../../core/tool.js';
import { toMcpTool } from './definitions.js';

interface Snapshot {
  readonly version: number;
  readonly deferred: ReadonlySet<string>;
  /** Tools not deferred, in catalog order, already in MCP form. */
  readonly loaded: readonly { readonly position: number; readonly tool: Tool }[];
  readonly position: ReadonlyMap<string, number>;
  readonly mcp: Map<string, Tool>;
}

export interface VisibleSource {
  readonly version: number;
  readonly tools: readonly ToolSpec[];
  get(name: string): ToolSpec | undefined;
}

export class VisibleTools {
  private snapshot: Snapshot | undefined;

  constructor(private readonly catalog: VisibleSource) {}

  /**
   * Always-loaded tools in catalog order, then the session's discovered deferred ones in load
   * order (E5): a search only appends, so each list keeps the previous one as its prefix and a
   * client's prompt cache survives it.
   */
  list(deferred: ReadonlySet<string>, discovered: readonly string[]): Tool[] {
    const snap = this.current(deferred);
    const out = snap.loaded.map((e) => e.tool);
    const seen = new Set<string>();
    for (const name of discovered) {
      if (!snap.position.has(name) || !deferred.has(name) || seen.has(name)) continue;
      seen.add(name);
      out.push(this.mcpTool(snap, name));
    }
    return out;
  }

  private current(deferred: ReadonlySet<string>): Snapshot {
    const version = this.catalog.version;
    if (this.snapshot?.version === version && this.snapshot.deferred === deferred) return this.snapshot;
    const position = new Map<string, number>();
    const loaded: { position: number; tool: Tool }[] = [];
    this.catalog.tools.forEach((tool, i) => {
      position.set(tool.name, i);
      if (!deferred.has(tool.name)) loaded.push({ position: i, tool: toMcpTool(tool) });
    });
    this.snapshot = { version, deferred, loaded, position, mcp: new Map() };
    return this.snapshot;
  }

  private mcpTool(snap: Snapshot, name: string): Tool {
    let tool = snap.mcp.get(name);
    if (!tool) snap.mcp.set(name, (tool = toMcpTool(this.catalog.get(name)!)));
    return tool;
  }
}

/**
 * F2/F9 — a pool that keeps a server's tools while the server is connecting again. A server that
 * drops leaves the catalog until it lists again; an adapter reading the catalog alone would strip
 * references to its tools (F2) or drop their additions (F9) from the history it sends, rewriting
 * earlier turns: the prompt cache is lost from the first such turn on (a real client had 65–93 %
 * of its cache invalidated by exactly this). So the tools last seen of a server that is pending
 * stay in the view, unchanged, until the server lists again (its list replaces them) or is no
 * longer pending (failed for good, removed: then they go, and a call says why).
 *
 * The view keeps the order tools were first seen in: a catalog re-adds a returning server's tools
 * at its end, which would reorder the announcement (the head of the prompt) once the server is
 * back; here it reads as before the drop.
 *
 * Bounded: it remembers only tools it has seen in the pool, and forgets each one as soon as it is
 * neither in the pool nor on a pending server.
 */
import type { PoolView } from '../../core/catalog.js';
import { serverOf, type ToolSpec } from '../../core/tool.js';

export class RetainedPool implements PoolView {
  /** Each tool as last seen in the pool, by name. */
  private readonly seen = new Map<string, ToolSpec>();
  private view: { tools: readonly ToolSpec[]; pending: string; out: readonly ToolSpec[] } | undefined;

  constructor(private readonly pool: PoolView) {}

  get pendingServers(): readonly string[] {
    return this.pool.pendingServers;
  }

  get failedServers(): PoolView['failedServers'] {
    return this.pool.failedServers;
  }

  get hiddenTools(): PoolView['hiddenTools'] {
    return this.pool.hiddenTools;
  }

  /** The pool's tools and the kept tools of servers still connecting again, in first-seen order. */
  get tools(): readonly ToolSpec[] {
    const tools = this.pool.tools;
    const pending = this.pool.pendingServers;
    const key = pending.join('\n');
    if (this.view?.tools === tools && this.view.pending === key) return this.view.out;
    const out = this.merged(tools, new Set(pending));
    this.view = { tools, pending: key, out };
    return out;
  }

  /** Names in the view only because their server is pending (not in the pool now). */
  retained(): string[] {
    const present = new Set(this.pool.tools.map((t) => t.name));
    return this.tools.filter((t) => !present.has(t.name)).map((t) => t.name);
  }

  private merged(tools: readonly ToolSpec[], pending: ReadonlySet<string>): ToolSpec[] {
    const present = new Set<string>();
    // A Map keeps a key's first position when it is set again: new tools go last, known ones stay.
    for (const tool of tools) {
      this.seen.set(tool.name, tool);
      present.add(tool.name);
    }
    const out: ToolSpec[] = [];
    for (const [name, tool] of this.seen) {
      const server = serverOf(tool);
      if (present.has(name) || (server !== undefined && pending.has(server))) out.push(tool);
      else this.seen.delete(name);
    }
    return out;
  }
}

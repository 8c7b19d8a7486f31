import { admitTool } from '../../src/core/catalog.js';
import type { ToolSpec } from '../../src/core/tool.js';
import type { SearchPool } from '../../src/search/searcher.js';

export function mcp(server: string, name: string, description = '', extra: Partial<ToolSpec> = {}): ToolSpec {
  return admitTool({ name, description, origin: { kind: 'mcp', server }, ...extra });
}

export function local(name: string, description = '', extra: Partial<ToolSpec> = {}): ToolSpec {
  return admitTool({ name, description, defer: true, ...extra });
}

/** A pool where every tool is deferred except the names in `loaded`. */
export function poolOf(tools: ToolSpec[], loaded: string[] = [], pendingServers: string[] = []): SearchPool {
  return { tools, deferred: new Set(tools.map((t) => t.name).filter((n) => !loaded.includes(n))), pendingServers };
}

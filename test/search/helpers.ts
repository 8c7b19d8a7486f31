import { admitTool } from '../../src/core/catalog.js';
import type { ToolSpec } from '../../src/core/tool.js';
import type { SearchPool } from '../../src/search/searcher.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { defaultRanker, type DefaultRankerOptions } from '../../src/search/rank-default/index.js';

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

/** The default ranker's top 10 names for `query` over `tools`, with `options` overriding its defaults. */
export function ranked(tools: ToolSpec[], query: string, options: Partial<DefaultRankerOptions> = {}): string[] {
  return defaultRanker(options)
    .build(tools)
    .search(parseKeywordQuery(query), 10)
    .map((r) => r.name);
}

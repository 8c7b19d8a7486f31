import { admitTool } from '../../src/core/catalog.js';
import type { ToolSpec } from '../../src/core/tool.js';
import type { SearchPool } from '../../src/search/searcher.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { defaultRanker, type DefaultRankerOptions } from '../../src/search/rank-default/index.js';
import { realTools } from '../fixtures/real-servers/index.js';

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

const realCatalog = realTools();
const realIds = new Map(realCatalog.map((t) => [t.name, t.id]));
const realIndexes = new Map<string, ReturnType<ReturnType<typeof defaultRanker>['build']>>();
/** The top `k` catalog ids (`server/tool`) for `query` over the real servers' catalog, with `options` overriding the defaults. */
export function topReal(query: string, k = 5, options: Partial<DefaultRankerOptions> = {}): string[] {
  const key = JSON.stringify(options);
  let index = realIndexes.get(key);
  if (!index) realIndexes.set(key, (index = defaultRanker(options).build(realCatalog)));
  return index.search(parseKeywordQuery(query), k).map((r) => realIds.get(r.name)!);
}

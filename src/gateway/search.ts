/**
 * The gateway's seam to the search engine. The contract is the one `src/search` exports
 * (`ToolSearcher.search(pool, query, {maxResults})` + `formatSearchResult`); the gateway depends
 * on this interface only, so any engine with that shape plugs in.
 *
 * TODO(merge search): make `new ToolSearcher()` + `formatSearchResult` from '../search/index.js'
 * the default and delete `basicSearcher` once the search branch lands on main.
 */
import { DEFAULT_MAX_RESULTS } from '../core/search-tool.js';
import { MCP_PREFIX } from '../core/names.js';
import type { ToolSpec } from '../core/tool.js';

export interface SearchPool {
  readonly tools: readonly ToolSpec[];
  readonly deferred: ReadonlySet<string>;
  readonly pendingServers: readonly string[];
}

export interface SearchOutcome {
  readonly query: string;
  readonly kind: string;
  /** Names of the tools found (and therefore loaded). */
  readonly matches: readonly string[];
  readonly notFound: readonly string[];
  readonly totalDeferred: number;
  readonly pendingServers: readonly string[];
}

export interface GatewaySearcher {
  search(pool: SearchPool, query: string, options: { maxResults?: number }): SearchOutcome | Promise<SearchOutcome>;
  /** Text shown to the model; `formatSearchOutcome` when absent. */
  format?(outcome: SearchOutcome): string;
}

/** C8-aware default text: what was loaded, or how many deferred tools exist and who is still connecting. */
export function formatSearchOutcome(outcome: SearchOutcome): string {
  const lines: string[] = [];
  if (outcome.matches.length > 0) lines.push(`Loaded ${outcome.matches.length} tool(s): ${outcome.matches.join(', ')}.`);
  else lines.push(`No tools matched "${outcome.query}". ${outcome.totalDeferred} deferred tool(s) are available; try other words or "select:<name>".`);
  if (outcome.notFound.length > 0) lines.push(`Not found: ${outcome.notFound.join(', ')}.`);
  if (outcome.pendingServers.length > 0) {
    lines.push(`Still connecting: ${outcome.pendingServers.join(', ')}. Their tools are not searchable yet; search again shortly.`);
  }
  return lines.join('\n');
}

/**
 * A deliberately small stand-in engine (select:, exact name, mcp__server prefix, keyword
 * overlap) so the gateway works before the real ranker is merged.
 */
export const basicSearcher: GatewaySearcher = {
  search(pool, query, { maxResults = DEFAULT_MAX_RESULTS }) {
    const trimmed = query.trim();
    const byName = new Map(pool.tools.map((t) => [t.name, t]));
    const base = { query, totalDeferred: pool.deferred.size, pendingServers: pool.pendingServers };
    if (trimmed.toLowerCase().startsWith('select:')) {
      const names = trimmed.slice('select:'.length).split(',').map((n) => n.trim()).filter(Boolean);
      return { ...base, kind: 'select', matches: names.filter((n) => byName.has(n)), notFound: names.filter((n) => !byName.has(n)) };
    }
    if (byName.has(trimmed)) return { ...base, kind: 'exact', matches: [trimmed], notFound: [] };
    if (trimmed.startsWith(MCP_PREFIX) && !trimmed.slice(MCP_PREFIX.length).includes('__')) {
      const server = trimmed.slice(MCP_PREFIX.length);
      const matches = pool.tools.filter((t) => t.origin.kind === 'mcp' && t.origin.server === server).map((t) => t.name);
      return { ...base, kind: 'server', matches, notFound: [] };
    }
    const terms = trimmed.toLowerCase().split(/[^a-z0-9+]+/).filter(Boolean);
    const required = terms.filter((t) => t.startsWith('+')).map((t) => t.slice(1));
    const words = terms.map((t) => t.replace(/^\+/, ''));
    const scored = [...pool.deferred]
      .map((name) => byName.get(name))
      .filter((tool): tool is ToolSpec => tool !== undefined)
      .map((tool) => {
        const text = `${tool.name} ${tool.searchHint ?? ''} ${tool.description}`.toLowerCase().replace(/[_-]/g, ' ');
        const score = words.filter((w) => text.includes(w)).length;
        return { tool, score, ok: required.every((r) => text.includes(r)) };
      })
      .filter((s) => s.score > 0 && s.ok)
      .sort((a, b) => b.score - a.score)
      .slice(0, maxResults);
    return { ...base, kind: 'keyword', matches: scored.map((s) => s.tool.name), notFound: [] };
  },
};

/**
 * C3/E4/C15 — a server listing, without scoring: `mcp__<prefix>` lists the deferred tools under it,
 * and a query that is exactly a server's name lists that server (a server the announcement left
 * unnamed is still found by name). One server's listing names all its tools, its deprecated ones
 * last (the answer's token budget bounds the text, search/session-answer.ts); a prefix spanning
 * several servers names the servers too.
 */
import { isDeprecated } from '../core/compact-tool.js';
import { MCP_PREFIX } from '../core/names.js';
import type { ServerInfo, ToolSpec } from '../core/tool.js';
import { PoolFacts } from './pool-facts.js';
import type { ToolSearchResult } from './search-types.js';

/** Tools one server's listing returns at most. */
export const BROWSE_MAX_TOOLS = 100;
/** Servers a prefix that fits several names. */
const MAX_LISTED_SERVERS = 20;

export type Listing = Pick<ToolSearchResult, 'matches' | 'serversMatched' | 'listingTotal' | 'suggestedServers'> & {
  /** The lowercased prefix the tools were listed under. */
  readonly prefix: string;
};

/** The listing a query asks for, or undefined when it asks for none (or no tool has the prefix). */
export function serverListing(
  facts: PoolFacts,
  info: ReadonlyMap<string, ServerInfo> | undefined,
  text: string,
  limit: number,
): Listing | undefined {
  const lower = text.toLowerCase();
  const named = lower.startsWith(MCP_PREFIX) ? undefined : facts.serverNamed(text);
  const prefix = named !== undefined ? `${MCP_PREFIX}${named.toLowerCase()}__` : lower;
  if (!prefix.startsWith(MCP_PREFIX)) return undefined;
  const tools = facts.withPrefix(prefix);
  if (tools.length === 0) return undefined;
  const servers = PoolFacts.serversOf(tools);
  if (servers.length < 2) {
    // One server: named as its tools' prefix (`mcp__git__`), unless the query narrowed it further.
    const own = servers[0] !== undefined ? `${MCP_PREFIX}${servers[0]}__` : prefix;
    return {
      prefix,
      matches: deprecatedLast(tools)
        .slice(0, BROWSE_MAX_TOOLS)
        .map((t) => t.name),
      serversMatched: prefix.length > own.length ? prefix : own,
      listingTotal: tools.length,
    };
  }
  const suggestedServers = servers.slice(0, MAX_LISTED_SERVERS).map((server) => ({
    server,
    summary: facts.summary(server, info),
    tools: facts
      .toolsOf(server)
      .slice(0, 3)
      .map((t) => t.name),
  }));
  return { prefix, matches: tools.slice(0, limit).map((t) => t.name), serversMatched: prefix, suggestedServers };
}

/** A server's tools in its own order, those whose description says they are deprecated last. */
function deprecatedLast(tools: readonly ToolSpec[]): ToolSpec[] {
  const current = tools.filter((t) => !isDeprecated(t.description));
  return current.length === tools.length
    ? [...tools]
    : [...current, ...tools.filter((t) => isDeprecated(t.description))];
}

/**
 * G10 — a search narrowed by policy says so. A profile or `toolSearch.allow` that leaves a class of
 * tools out (a read-only profile hides every write tool of git) used to make a search answer as if
 * those tools did not exist: the model retried, or told the user there was no such tool. Now the
 * answer counts the tools that would have been in it and names one with its reason.
 *
 * "Would have been in it": the same query is ranked over the pool as if nothing were left out (the
 * searchable tools plus the left-out ones, in an index of their own), and the left-out tools among
 * its top hits that hold the query's words (C12's confidence) are counted; a server listing counts
 * the left-out tools under its prefix.
 */
import type { ToolSpec } from '../core/tool.js';
import type { PolicyHiddenTool, SearchOptions, SearchPool, ToolSearchResult } from './search-types.js';
import { LOW_CONFIDENCE } from './suggest.js';

/** What the answer says: how many, and one's reason (the names stay hidden). */
export interface Withheld {
  readonly count: number;
  readonly reason: string;
}

type Search = (pool: SearchPool, query: string, options: SearchOptions) => ToolSearchResult;

/** The unnarrowed pool per (searchable tools, hidden list) pair, so its index is built once. */
const unnarrowedPools = new WeakMap<readonly ToolSpec[], WeakMap<readonly PolicyHiddenTool[], SearchPool>>();

export function policyWithheld(
  search: Search,
  searchable: readonly ToolSpec[],
  hidden: readonly PolicyHiddenTool[],
  query: string,
  listing: { readonly prefix?: string; readonly limit: number },
): Withheld | undefined {
  if (hidden.length === 0) return undefined;
  const reasons = new Map(hidden.map((h) => [h.tool.name, h.reason]));
  const names =
    listing.prefix !== undefined
      ? hidden.filter((h) => h.tool.name.toLowerCase().startsWith(listing.prefix!)).map((h) => h.tool.name)
      : matching(search(unnarrowed(searchable, hidden), query, { maxResults: listing.limit })).filter((n) =>
          reasons.has(n),
        );
  const first = names[0];
  return first === undefined ? undefined : { count: names.length, reason: reasons.get(first)! };
}

/** The hits that hold the query's words (C12's confidence), not those a server's other tools lifted. */
function matching(result: ToolSearchResult): string[] {
  return result.matches.filter((_, i) => (result.confidence?.[i] ?? 1) >= LOW_CONFIDENCE);
}

function unnarrowed(searchable: readonly ToolSpec[], hidden: readonly PolicyHiddenTool[]): SearchPool {
  let byHidden = unnarrowedPools.get(searchable);
  if (!byHidden) unnarrowedPools.set(searchable, (byHidden = new WeakMap()));
  let pool = byHidden.get(hidden);
  if (!pool) {
    const tools = [...searchable, ...hidden.map((h) => h.tool)];
    pool = { tools, deferred: new Set(tools.map((t) => t.name)), pendingServers: [] };
    byHidden.set(hidden, pool);
  }
  return pool;
}
